import Foundation
import Stratus
import StratusAdapterKit

/// The Drive folder a ``DriveService`` treats as its root.
public enum DriveRoot: Hashable, Sendable, CustomStringConvertible {
    /// The app's hidden application data folder (`appDataFolder`, in the `appDataFolder`
    /// space): private to the app, invisible to the user, and not counted against the files a
    /// user can browse. Needs the `drive.appdata` scope.
    case appDataFolder
    /// A folder in My Drive, given as a path of folder names from the top of My Drive, such as
    /// `Games/Saves`; it is created on the first write when missing. Needs the `drive.file` or
    /// `drive` scope.
    case folder(String)

    /// The configuration spelling of the application data folder.
    public static let appDataFolderName = "appDataFolder"

    /// Reads the `root` option: `appDataFolder` (or empty) for the application data folder,
    /// anything else as a folder path in My Drive.
    /// - Parameter text: The option's value.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidConfiguration`` for a path that is not valid.
    public init(option text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty || trimmed == DriveRoot.appDataFolderName {
            self = .appDataFolder
            return
        }
        let root = DriveRoot.folder(trimmed)
        _ = try root.components()
        self = root
    }

    /// The folder names from the top of the space to the root; empty for the application data
    /// folder.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidConfiguration`` for a path that is not valid.
    func components() throws -> [String] {
        switch self {
        case .appDataFolder:
            return []
        case .folder(let text):
            return try RemotePath(rootOption: text, service: "Drive", alternative: DriveRoot.appDataFolderName)
                .components
        }
    }

    /// The `spaces` value for queries and the change feed.
    var space: String {
        switch self {
        case .appDataFolder: "appDataFolder"
        case .folder: "drive"
        }
    }

    /// The alias of the top folder of the space: `appDataFolder` or `root` (My Drive).
    var topAlias: String {
        switch self {
        case .appDataFolder: "appDataFolder"
        case .folder: "root"
        }
    }

    /// `appDataFolder` or `folder(<path>)`.
    public var description: String {
        switch self {
        case .appDataFolder: DriveRoot.appDataFolderName
        case .folder(let path): "folder(\(path))"
        }
    }
}
