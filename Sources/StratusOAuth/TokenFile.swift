import Foundation
import Stratus
import StratusAdapterKit
import StratusFileSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The token file's POSIX operations.
enum TokenFile {
    /// The permission bits a token file may not have: any access by group or others.
    static let forbiddenModeBits: mode_t = 0o077

    /// Reads and decodes the token file.
    /// - Returns: The token, or `nil` when the file does not exist.
    /// - Throws: `permissionDenied` when group or others may access the file, `localFile` when
    ///   it cannot be read or is not a token file.
    static func read(_ url: URL) throws -> OAuthToken? {
        guard let descriptor = try openChecked(url) else { return nil }
        defer { close(descriptor) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = SystemCall.retryingOnInterrupt {
                buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            }
            if count == 0 { break }
            if count < 0 { throw failure("read", url, errno: errno) }
            data.append(contentsOf: buffer[0..<count])
            if data.count > 1024 * 1024 {
                throw ServiceError(
                    .localFile,
                    "The token file \(url.path) is larger than 1 MiB, so it is not a token file; remove it and sign in again."
                )
            }
        }
        do {
            return try JSONDecoder().decode(OAuthToken.self, from: data)
        } catch {
            // The decoding error may quote the file's contents, so it is not passed on.
            throw ServiceError(
                .localFile, "The token file \(url.path) is not a valid token file; remove it and sign in again.")
        }
    }

    /// Refuses an existing token file that must not be used (readable by others, not a regular
    /// file, a symbolic link), without reading it; a missing file passes.
    static func checkUsable(_ url: URL) throws {
        if let descriptor = try openChecked(url) { close(descriptor) }
    }

    /// Opens the token file for reading after checking its folder, type, owner and permissions.
    /// - Returns: The descriptor, or `nil` when the file does not exist.
    private static func openChecked(_ url: URL) throws -> Int32? {
        try checkFolder(of: url)
        let descriptor: Int32
        do {
            descriptor = try open(url, flags: O_RDONLY | O_CLOEXEC | O_NOFOLLOW, purpose: "open")
        } catch is NoSuchFile {
            return nil
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let error = errno
            close(descriptor)
            throw failure("inspect", url, errno: error)
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw ServiceError(
                .localFile, "The token file \(url.path) is not a regular file; remove it and sign in again.")
        }
        guard status.st_uid == geteuid() else {
            close(descriptor)
            throw ServiceError(
                .permissionDenied,
                "The token file \(url.path) belongs to user \(status.st_uid), not to you, so someone else could have written it; it was not used. Remove it and sign in again."
            )
        }
        guard status.st_mode & forbiddenModeBits == 0 else {
            close(descriptor)
            let mode = String(status.st_mode & 0o777, radix: 8)
            throw ServiceError(
                .permissionDenied,
                "The token file \(url.path) has permissions \(mode), so other users may read it; it was not used. Run `chmod 600 \(url.path)` (and, if someone else may have read it, sign out and sign in again)."
            )
        }
        return descriptor
    }

    /// Refuses a token folder that someone else owns or that group or others may write to, where
    /// another user could replace the token file (or plant a FIFO or link at its name).
    static func checkFolder(of url: URL) throws {
        let folder = url.deletingLastPathComponent()
        var status = stat()
        let result = folder.withUnsafeFileSystemRepresentation { path in path.map { stat($0, &status) } ?? -1 }
        // A missing folder is made (0700) before anything is written.
        if result != 0 {
            if errno == ENOENT { return }
            throw failure("inspect", folder, errno: errno)
        }
        guard status.st_uid == geteuid() || status.st_uid == 0, status.st_mode & 0o022 == 0 else {
            let mode = String(status.st_mode & 0o777, radix: 8)
            throw ServiceError(
                .permissionDenied,
                "The token folder \(folder.path) (owner \(status.st_uid), permissions \(mode)) may be written by other users, who could replace the token file; it was not used. Keep tokens in a folder of your own, such as with `chmod 700 \(folder.path)`."
            )
        }
    }

    /// Writes the token atomically with StratusFileSystem's ``/StratusFileSystem/AtomicFile``:
    /// a temporary file of exactly 0600 in the same folder (never through a link, never
    /// blocking on a planted FIFO), flushed, renamed over the token file, the folder flushed.
    static func write(_ token: OAuthToken, to url: URL) throws {
        try checkFolder(of: url)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(token)
        do {
            try AtomicFile.write(data, to: url.path, mode: 0o600, ignoringUmask: true, flags: O_NOFOLLOW | O_NONBLOCK)
        } catch {
            let action =
                switch error.operation {
                case "open": "create"
                case "fchmod": "set permissions of"
                case "write": "write"
                case "fsync": "flush"
                default: "replace"
                }
            throw failure(
                action, error.operation == "rename" ? url : URL(filePath: error.path), errno: error.errorNumber)
        }
    }

    /// Deletes the token file; a missing file is fine.
    static func remove(_ url: URL) throws {
        let result = url.withUnsafeFileSystemRepresentation { path in path.map { unlink($0) } ?? -1 }
        if result != 0 && errno != ENOENT {
            throw failure("remove", url, errno: errno)
        }
        syncFolder(url.deletingLastPathComponent())
    }

    /// Creates the file's folder, readable by its owner only, when it is missing.
    static func createFolder(of url: URL) throws {
        let folder = url.deletingLastPathComponent()
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue { return }
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw ServiceError(
                .localFile, "Could not create the folder \(folder.path) for the token file.",
                underlying: SendableError(error))
        }
    }

    /// Opens a file (creating it with mode 0600 when `flags` ask to).
    /// - Throws: ``NoSuchFile`` when it does not exist and was not to be created.
    static func open(_ url: URL, flags: Int32, purpose: String) throws -> Int32 {
        let (descriptor, error) = url.withUnsafeFileSystemRepresentation { path -> (Int32, Int32) in
            guard let path else { return (-1, EINVAL) }
            // Never blocks: a FIFO planted at the path would otherwise hang the process.
            let descriptor = systemOpen(path, flags | O_NONBLOCK, 0o600)
            return (descriptor, descriptor < 0 ? errno : 0)
        }
        if descriptor >= 0 { return descriptor }
        if error == ENOENT && flags & O_CREAT == 0 { throw NoSuchFile() }
        if error == ELOOP {
            throw ServiceError(
                .permissionDenied,
                "\(url.path) is a symbolic link; token files must be regular files. Remove the link and sign in again.")
        }
        throw failure(purpose, url, errno: error)
    }

    /// An error for a failed system call, with the system's words for `errno`.
    static func failure(_ action: String, _ url: URL, errno error: Int32) -> ServiceError {
        let code: ServiceError.Code = (error == EACCES || error == EPERM) ? .permissionDenied : .localFile
        return ServiceError(code, "Could not \(action) \(url.path): \(String(cString: strerror(error))).")
    }

    private static func syncFolder(_ folder: URL) {
        // Makes the removal durable; a failure here loses nothing already written.
        try? AtomicFile.synchronizeFolder(folder.path)
    }

    struct NoSuchFile: Error {}
}

// The C library's calls, named apart from TokenFile's own `read` and `open`.
private func systemOpen(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 {
    open(path, flags, mode)
}

private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
