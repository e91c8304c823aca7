print("stratus-save-sync: not built yet")
