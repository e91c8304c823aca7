// MockOneDriveTests: tests of the Microsoft Graph mock (issue 26, under way).
