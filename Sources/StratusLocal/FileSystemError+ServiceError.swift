import Stratus
import StratusFileSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension FileSystemError {
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
            ServiceError(
                .localFile, "Could not \(action): \(operation) on \(path) failed: \(reason).", underlying: self)
        }
    }
}
