import Foundation
import StratusFileSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file opened read-only through a POSIX file descriptor, which its owner must ``close()``.
struct ReadOnlyFile {
    /// The file descriptor.
    private let descriptor: Int32
    /// The file's path, for error messages.
    let path: String

    /// Opens a file read-only.
    /// - Parameter url: The file URL.
    /// - Throws: ``DigestError`` with the path and the `errno` value if `open` fails.
    init(opening url: URL) throws(DigestError) {
        path = url.path
        let (descriptor, errorNumber): (Int32, Int32) = url.withUnsafeFileSystemRepresentation { fileSystemPath in
            guard let fileSystemPath else {
                return (-1, EINVAL)
            }
            let descriptor = open(fileSystemPath, O_RDONLY | O_CLOEXEC)
            return (descriptor, descriptor < 0 ? errno : 0)
        }
        guard descriptor >= 0 else {
            throw DigestError(
                message: "Cannot open file for hashing",
                path: path,
                errorNumber: errorNumber,
                detail: systemErrorText(errorNumber)
            )
        }
        self.descriptor = descriptor
    }

    /// Reads the next bytes of the file, retrying when a signal interrupts the read.
    /// - Parameter buffer: Where to put the bytes.
    /// - Returns: How many bytes were read; 0 at the end of the file.
    /// - Throws: ``DigestError`` with the path and the `errno` value if `read` fails.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(DigestError) -> Int {
        let count = SystemCall.retryingOnInterrupt { systemRead(descriptor, buffer.baseAddress, buffer.count) }
        guard count >= 0 else {
            let errorNumber = errno
            throw DigestError(
                message: "Cannot read file for hashing",
                path: path,
                errorNumber: errorNumber,
                detail: systemErrorText(errorNumber)
            )
        }
        return count
    }

    /// Closes the descriptor.
    func close() {
        _ = systemClose(descriptor)
    }
}

/// The C library's `read`, named apart from ``ReadOnlyFile/read(into:)``.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

/// The C library's `close`, named apart from ``ReadOnlyFile/close()``.
private func systemClose(_ descriptor: Int32) -> Int32 {
    close(descriptor)
}

/// The operating system's text for an `errno` value.
private func systemErrorText(_ errorNumber: Int32) -> String {
    String(cString: strerror(errorNumber))
}
