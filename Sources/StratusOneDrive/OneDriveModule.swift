// StratusOneDrive: the `onedrive` backend over Microsoft Graph (issue 26, under way).
enum OneDriveModule {}
