import StratusFileSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The path-level file system calls the local store makes beyond StratusFileSystem's
/// (``AtomicFile``, ``FileDescriptor``, ``FileLock``), each throwing ``FileSystemError``.
///
/// Paths are `String`s passed to the system as their UTF-8 bytes, exactly: no Unicode
/// normalization happens on the way, so `café` written in NFC and in NFD are two names.
enum FileSystem {
    /// What is at a path, without following a symbolic link there.
    enum Kind: Equatable {
        case regularFile
        case directory
        case other
    }

    /// What is at a path.
    /// - Returns: The kind of entry, or `nil` when nothing is there.
    /// - Throws: ``FileSystemError`` when `lstat(2)` fails for another reason than absence.
    static func kind(at path: String) throws -> Kind? {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw FileSystemError.last("lstat", path)
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regularFile
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    /// When the entry at a path was last modified, in seconds since 1970.
    /// - Returns: The time, or `nil` when nothing is there or it cannot be read.
    static func modificationTime(at path: String) -> Int? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return Int(info.st_mtim.tv_sec)
    }

    /// Creates a folder unless one is already there.
    /// - Returns: Whether this call created it.
    /// - Throws: ``FileSystemError`` when it cannot be created, including `EEXIST` when
    ///   something other than a folder is in the way and `ENOTDIR` when a parent is a file.
    @discardableResult
    static func makeDirectory(_ path: String) throws -> Bool {
        if mkdir(path, 0o755) == 0 {
            return true
        }
        let failure = FileSystemError.last("mkdir", path)
        if failure.errorNumber == EEXIST, try kind(at: path) == .directory {
            return false
        }
        throw failure
    }

    /// Removes a file; a file that is already gone is not an error.
    /// - Throws: ``FileSystemError`` when `unlink(2)` fails for another reason.
    static func removeFile(_ path: String) throws {
        guard unlink(path) == 0 || errno == ENOENT else {
            throw FileSystemError.last("unlink", path)
        }
    }

    /// Removes a file if it is there, ignoring every failure; for cleaning up after a failure
    /// that is already being reported.
    static func discardFile(_ path: String) {
        _ = unlink(path)
    }

    /// Removes a folder if it is empty, ignoring every failure.
    static func discardEmptyDirectory(_ path: String) {
        _ = rmdir(path)
    }

    /// Reads a whole small file.
    /// - Returns: The bytes, or `nil` when there is no file at the path.
    /// - Throws: ``FileSystemError`` when it cannot be opened or read.
    static func contents(of path: String) throws -> [UInt8]? {
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, O_RDONLY)
        } catch  where error.errorNumber == ENOENT {
            return nil
        }
        return try file.readToEnd()
    }

    /// The names in a folder, without `.` and `..`, with what each one is.
    ///
    /// Names that are not valid UTF-8 are left out: no ``RemotePath`` can name them.
    /// - Throws: ``FileSystemError`` when the folder cannot be read.
    static func entries(of folder: String) throws -> [(name: String, kind: Kind)] {
        guard let stream = opendir(folder) else {
            throw FileSystemError.last("opendir", folder)
        }
        defer { closedir(stream) }
        var result: [(name: String, kind: Kind)] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { tuple in
                tuple.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: tuple.pointee)) {
                    String(validatingCString: $0)
                }
            }
            guard let name, name != ".", name != ".." else { continue }
            let kind: Kind?
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_REG): kind = .regularFile
            case Int32(DT_DIR): kind = .directory
            case Int32(DT_UNKNOWN): kind = try self.kind(at: folder + "/" + name)
            default: kind = .other
            }
            if let kind {
                result.append((name, kind))
            }
        }
        return result
    }
}
