public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An open POSIX file descriptor, closed when the last reference to it goes away. Every call
/// goes through ``SystemCall`` (so `EINTR` is handled there) and throws ``FileSystemError``.
///
/// It holds nothing but the descriptor number and the path, both constants, so it is `Sendable`;
/// the file offset it shares is used by one piece of work at a time.
public final class FileDescriptor: Sendable {
    /// The descriptor number.
    public let raw: Int32
    /// The path it was opened with, for error messages.
    public let path: String

    private init(raw: Int32, path: String) {
        self.raw = raw
        self.path = path
    }

    deinit {
        close(raw)
    }

    /// Opens a file.
    /// - Parameters:
    ///   - path: The file's path, passed to the system as its UTF-8 bytes.
    ///   - flags: `open(2)` flags; `O_CLOEXEC` is always added.
    ///   - mode: The permissions of a file that `O_CREAT` creates (the umask may take bits away).
    /// - Returns: The open file.
    /// - Throws: ``FileSystemError`` when `open(2)` fails.
    public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o644) throws(FileSystemError)
        -> FileDescriptor
    {
        let raw = try SystemCall.checked("open", path) { path.withCString { openFile($0, flags | O_CLOEXEC, mode) } }
        return FileDescriptor(raw: raw, path: path)
    }

    /// Reads up to the buffer's size from the current offset.
    /// - Parameter buffer: Where the bytes go.
    /// - Returns: The number of bytes read; 0 at the end of the file.
    /// - Throws: ``FileSystemError`` when `read(2)` fails.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(FileSystemError) -> Int {
        try SystemCall.checked("read", path) { readBytes(raw, buffer.baseAddress, buffer.count) }
    }

    /// Reads the rest of the file from the current offset.
    /// - Parameter limit: The most bytes to read; reading stops with an error past it.
    /// - Returns: The bytes.
    /// - Throws: ``FileSystemError`` when `read(2)` fails, or `EFBIG` past `limit`.
    public func readToEnd(limit: Int = Int.max) throws(FileSystemError) -> [UInt8] {
        var bytes: [UInt8] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = try read(into: buffer)
            if count == 0 { return bytes }
            guard count <= limit - bytes.count else {
                throw FileSystemError(operation: "read", path: path, errorNumber: EFBIG)
            }
            bytes.append(contentsOf: buffer[0..<count])
        }
    }

    /// Writes all the bytes at the current offset (or the end, for `O_APPEND`).
    /// - Parameter bytes: The bytes.
    /// - Throws: ``FileSystemError`` when `write(2)` fails.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(FileSystemError) {
        var written = 0
        while written < bytes.count {
            written += try SystemCall.checked("write", path) {
                writeBytes(raw, bytes.baseAddress.map { $0 + written }, bytes.count - written)
            }
        }
    }

    /// Writes all the bytes of a collection, such as `[UInt8]` or `Data`.
    /// - Parameter bytes: The bytes.
    /// - Throws: ``FileSystemError`` when `write(2)` fails.
    public func write(_ bytes: some ContiguousBytes) throws(FileSystemError) {
        // `withUnsafeBytes` rethrows untyped errors: carry the typed one out in a `Result`.
        let outcome = bytes.withUnsafeBytes { raw in Result { () throws(FileSystemError) in try write(raw) } }
        try outcome.get()
    }

    /// Flushes the file's content and metadata to the disk.
    /// - Throws: ``FileSystemError`` when `fsync(2)` fails.
    public func synchronize() throws(FileSystemError) {
        try SystemCall.checked("fsync", path) { fsync(raw) }
    }

    /// Sets the file's permission bits, whatever the umask.
    /// - Parameter mode: The bits, such as `0o600`.
    /// - Throws: ``FileSystemError`` when `fchmod(2)` fails.
    public func setMode(_ mode: mode_t) throws(FileSystemError) {
        try SystemCall.checked("fchmod", path) { fchmod(raw, mode) }
    }

    /// The file's status (`fstat(2)`): type, owner, mode, size.
    /// - Returns: The status.
    /// - Throws: ``FileSystemError`` when `fstat(2)` fails.
    public func information() throws(FileSystemError) -> stat {
        var info = stat()
        try SystemCall.checked("fstat", path) { fstat(raw, &info) }
        return info
    }

    /// The file's size in bytes and whether it is a regular file.
    /// - Returns: Both.
    /// - Throws: ``FileSystemError`` when `fstat(2)` fails.
    public func status() throws(FileSystemError) -> (size: Int64, isRegularFile: Bool) {
        let info = try information()
        return (Int64(info.st_size), (info.st_mode & S_IFMT) == S_IFREG)
    }

    /// Moves the offset to a position from the start of the file.
    /// - Parameter offset: The position.
    /// - Throws: ``FileSystemError`` when `lseek(2)` fails.
    public func seek(to offset: Int64) throws(FileSystemError) {
        try SystemCall.checked("lseek", path) { lseek(raw, off_t(offset), SEEK_SET) }
    }

    /// Cuts the file to a length.
    /// - Parameter length: The new length.
    /// - Throws: ``FileSystemError`` when `ftruncate(2)` fails.
    public func truncate(to length: Int64) throws(FileSystemError) {
        try SystemCall.checked("ftruncate", path) { ftruncate(raw, off_t(length)) }
    }

    /// Reads one byte at a position without moving the offset.
    /// - Parameter offset: The position.
    /// - Returns: The byte, or `nil` past the end of the file.
    /// - Throws: ``FileSystemError`` when `pread(2)` fails.
    public func byte(at offset: Int64) throws(FileSystemError) -> UInt8? {
        var byte: UInt8 = 0
        let count = try SystemCall.checked("pread", path) { pread(raw, &byte, 1, off_t(offset)) }
        return count == 1 ? byte : nil
    }
}

// The C functions under other names, so the methods above can share theirs.
private func openFile(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 {
    open(path, flags, mode)
}

private func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

private func writeBytes(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
