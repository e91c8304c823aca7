import Foundation
import StratusFileSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The store's own folders and files are private to the user (0700 and 0600, as the token store
/// is): they hold a user's game data and sync state. A folder or file an older version made
/// readable by others is tightened when the store opens.
enum PrivateFiles {
    /// The mode of the store's folders.
    static let folderMode = 0o700
    /// The mode of the store's files while they are written.
    static let fileMode = 0o600

    /// Creates a folder (and its missing parents, which keep the umask's mode) at 0700, or
    /// takes group and other permissions away from one that exists.
    /// - Throws: An error from the file system.
    static func makeFolder(_ folder: URL) throws {
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: folderMode])
        try restrict(folder.path)
    }

    /// Creates an empty file at 0600 if none is there, or takes group and other permissions away
    /// from the one that is.
    /// - Throws: ``/StratusFileSystem/FileSystemError`` when it cannot be created or changed.
    static func makeFile(_ file: URL) throws {
        let descriptor = try FileDescriptor.open(file.path, O_RDWR | O_CREAT | O_CLOEXEC, mode: mode_t(fileMode))
        let mode = mode_t(try descriptor.information().st_mode) & 0o7777
        if mode & 0o077 != 0 { try descriptor.setMode(mode & ~0o077) }
    }

    /// Takes group and other permissions away from an existing folder.
    private static func restrict(_ path: String) throws {
        let current = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int ?? folderMode
        if current & 0o077 != 0 {
            try FileManager.default.setAttributes([.posixPermissions: current & ~0o077], ofItemAtPath: path)
        }
    }
}
