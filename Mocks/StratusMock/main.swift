print("stratus-mock: not built yet")
