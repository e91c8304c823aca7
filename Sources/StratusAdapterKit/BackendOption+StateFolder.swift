public import Foundation
public import Stratus

extension BackendOption {
    /// `state_folder`, the option of a remote whose adapter keeps what its change feed must
    /// still know after a restart in an ``AdapterStateFile`` (Drive, OneDrive).
    public static let stateFolder = BackendOption(
        "state_folder",
        summary:
            "A local folder for what the change feed must know after a restart (the paths of removed files); none by default."
    )
}

extension RemoteOptions {
    /// The `state_folder` option as a folder (`~` expanded), or `nil` when it is not set or empty.
    public func stateFolder() -> URL? {
        guard let text = string(BackendOption.stateFolder.name), !text.isEmpty else { return nil }
        return URL(filePath: NSString(string: text).expandingTildeInPath, directoryHint: .isDirectory)
    }
}
