import Foundation
import Stratus
import StratusAdapterKit

/// The OneDrive folder a ``OneDriveService`` treats as its root.
public enum OneDriveRoot: Hashable, Sendable, CustomStringConvertible {
    /// The app's own folder (`/me/drive/special/approot`, shown to the user as
    /// `Apps/<app name>`), made by OneDrive on first use. The `Files.ReadWrite.AppFolder` scope
    /// reaches it and nothing else.
    case appFolder
    /// A folder of the user's drive, given as a path of folder names from the top of the drive,
    /// such as `Games/Saves`; it is made on the first write. Needs `Files.ReadWrite`.
    case folder(String)

    /// The configuration spelling of the app folder.
    public static let appFolderName = "approot"

    /// Reads the `root` option: `approot` (or empty) for the app folder, anything else as a
    /// folder path.
    /// - Parameter text: The option's value.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidConfiguration`` for a path that is not valid.
    public init(option text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty || trimmed.lowercased() == OneDriveRoot.appFolderName {
            self = .appFolder
            return
        }
        let root = OneDriveRoot.folder(trimmed)
        _ = try root.components()
        self = root
    }

    /// The folder names from the top of the drive to the root; empty for the app folder.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidConfiguration`` for a path that is not valid.
    func components() throws -> [String] {
        switch self {
        case .appFolder:
            return []
        case .folder(let text):
            return try RemotePath(
                rootOption: text, service: "OneDrive", rules: OneDriveService.pathRules,
                alternative: OneDriveRoot.appFolderName
            ).components
        }
    }

    /// `approot` or `folder(<path>)`.
    public var description: String {
        switch self {
        case .appFolder: OneDriveRoot.appFolderName
        case .folder(let path): "folder(\(path))"
        }
    }
}
