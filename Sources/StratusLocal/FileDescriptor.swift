#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open POSIX file descriptor, closed when the last reference to it goes away.
///
/// It holds nothing but the descriptor number and the path, both constants, so it is `Sendable`;
/// the file offset it shares is used by one piece of work at a time.
final class FileDescriptor: Sendable {
    /// The descriptor number.
    let raw: Int32
    /// The path it was opened with, for error messages.
    let path: String

    private init(raw: Int32, path: String) {
        self.raw = raw
        self.path = path
    }

    deinit {
        close(raw)
    }

    /// Opens a file.
    /// - Parameters:
    ///   - path: The file's path.
    ///   - flags: `open(2)` flags; `O_CLOEXEC` is always added.
    ///   - mode: The permissions of a file that `O_CREAT` creates.
    /// - Throws: ``FileSystemError`` when `open(2)` fails.
    static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o644) throws -> FileDescriptor {
        while true {
            let raw = path.withCString { openFile($0, flags | O_CLOEXEC, mode) }
            if raw >= 0 {
                return FileDescriptor(raw: raw, path: path)
            }
            if errno != EINTR {
                throw FileSystemError.last("open", path)
            }
        }
    }

    /// Reads up to the buffer's size from the current offset.
    /// - Returns: The number of bytes read; 0 at the end of the file.
    /// - Throws: ``FileSystemError`` when `read(2)` fails.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let count = readBytes(raw, buffer.baseAddress, buffer.count)
            if count >= 0 {
                return count
            }
            if errno != EINTR {
                throw FileSystemError.last("read", path)
            }
        }
    }

    /// Writes all the bytes at the current offset (or the end, for `O_APPEND`).
    /// - Throws: ``FileSystemError`` when `write(2)` fails.
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        var written = 0
        while written < bytes.count {
            let count = writeBytes(raw, bytes.baseAddress.map { $0 + written }, bytes.count - written)
            if count < 0 {
                if errno == EINTR { continue }
                throw FileSystemError.last("write", path)
            }
            written += count
        }
    }

    /// Writes all the bytes of an array.
    /// - Throws: ``FileSystemError`` when `write(2)` fails.
    func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Flushes the file's content and metadata to the disk.
    /// - Throws: ``FileSystemError`` when `fsync(2)` fails.
    func synchronize() throws {
        while fsync(raw) != 0 {
            if errno != EINTR {
                throw FileSystemError.last("fsync", path)
            }
        }
    }

    /// The file's size in bytes and whether it is a regular file.
    /// - Throws: ``FileSystemError`` when `fstat(2)` fails.
    func status() throws -> (size: Int64, isRegularFile: Bool) {
        var info = stat()
        guard fstat(raw, &info) == 0 else {
            throw FileSystemError.last("fstat", path)
        }
        return (Int64(info.st_size), (info.st_mode & S_IFMT) == S_IFREG)
    }

    /// Moves the offset to a position from the start of the file.
    /// - Throws: ``FileSystemError`` when `lseek(2)` fails.
    func seek(to offset: Int64) throws {
        guard lseek(raw, off_t(offset), SEEK_SET) >= 0 else {
            throw FileSystemError.last("lseek", path)
        }
    }

    /// Cuts the file to a length.
    /// - Throws: ``FileSystemError`` when `ftruncate(2)` fails.
    func truncate(to length: Int64) throws {
        guard ftruncate(raw, off_t(length)) == 0 else {
            throw FileSystemError.last("ftruncate", path)
        }
    }

    /// Reads one byte at a position without moving the offset.
    /// - Returns: The byte, or `nil` past the end of the file.
    /// - Throws: ``FileSystemError`` when `pread(2)` fails.
    func byte(at offset: Int64) throws -> UInt8? {
        var byte: UInt8 = 0
        while true {
            let count = pread(raw, &byte, 1, off_t(offset))
            if count == 1 { return byte }
            if count == 0 { return nil }
            if errno != EINTR {
                throw FileSystemError.last("pread", path)
            }
        }
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
