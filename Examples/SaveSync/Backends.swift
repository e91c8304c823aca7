import Stratus
import StratusDrive
import StratusDropbox
import StratusLocal
import StratusOneDrive
import StratusS3
import StratusWebDAV

/// The backends the save-sync example can use by type name.
enum Backends {
    static let registry = ServiceRegistry(backends: [
        LocalBackend.self, DropboxBackend.self, DriveBackend.self, S3Backend.self, WebDAVBackend.self,
        OneDriveBackend.self,
    ])
}
