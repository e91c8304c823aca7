print("stratus: not built yet")
