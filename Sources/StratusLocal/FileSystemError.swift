import Stratus

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A system call on a local file or folder that failed, with the `errno` it set.
///
/// It never reaches a caller on its own: ``serviceError(while:)`` turns it into the
/// ``ServiceError`` the caller sees, keeping it as the underlying error.
struct FileSystemError: Error, Sendable, CustomStringConvertible {
    /// The call that failed, such as `"open"` or `"rename"`.
    var operation: String
    /// The file or folder it was about.
    var path: String
    /// The `errno` value the call set.
    var errorNumber: Int32

    /// Captures the current `errno` for a call that just failed.
    /// - Parameters:
    ///   - operation: The call's name.
    ///   - path: The file or folder it was about.
    static func last(_ operation: String, _ path: String) -> FileSystemError {
        FileSystemError(operation: operation, path: path, errorNumber: errno)
    }

    /// The operating system's words for ``errorNumber``.
    var reason: String {
        String(cString: strerror(errorNumber))
    }

    var description: String {
        "\(operation)(\(path)) failed: \(reason) (errno \(errorNumber))"
    }

    /// The error to show a caller.
    /// - Parameter action: What Stratus was doing, phrased to follow "could not", such as
    ///   `"read the file to upload"`.
    /// - Returns: `quotaExceeded` for a full disk, `permissionDenied` for refused access,
    ///   `invalidPath` for a name the file system finds too long, `localFile` otherwise.
    func serviceError(while action: String) -> ServiceError {
        switch errorNumber {
        case ENOSPC, EDQUOT:
            ServiceError(
                .quotaExceeded,
                "Could not \(action): the disk holding \(path) is full. Free some space and try again.",
                underlying: self
            )
        case EACCES, EPERM, EROFS:
            ServiceError(
                .permissionDenied,
                "Could not \(action): access to \(path) was refused (\(reason)). Check that this user may read and write it.",
                underlying: self
            )
        case ENAMETOOLONG:
            ServiceError(
                .invalidPath,
                "Could not \(action): the path \(path) is too long for the local file system. Use shorter names or a shorter root folder.",
                underlying: self
            )
        default:
            ServiceError(.localFile, "Could not \(action): \(operation) on \(path) failed: \(reason).", underlying: self)
        }
    }
}
