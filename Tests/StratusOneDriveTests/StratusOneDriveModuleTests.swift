// StratusOneDriveTests: tests of the onedrive adapter (issue 26, under way).
