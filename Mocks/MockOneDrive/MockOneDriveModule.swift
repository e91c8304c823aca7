// MockOneDrive: a Microsoft Graph mock for OneDrive (issue 26, under way).
enum MockOneDriveModule {}
