print("stratus-sync-sim: not built yet")
