#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The store-wide exclusive lock: `flock(2)` on `.stratus/lock`.
///
/// Each use opens the lock file anew, and `flock` locks belong to an open file description, so
/// the lock excludes other tasks of this process, other `LocalService` instances on the same
/// root and other processes alike. The lock is released when the body returns or throws, and by
/// the kernel if the process dies.
struct StoreLock: Sendable {
    /// The lock file's path.
    let path: String

    /// Runs a body while holding the lock, waiting (on the current thread) until it is free.
    /// - Parameter body: The work; it must not suspend.
    /// - Returns: What the body returns.
    /// - Throws: ``FileSystemError`` when the lock cannot be taken, or what the body throws.
    func withExclusiveLock<Result>(_ body: () throws -> Result) throws -> Result {
        let file = try FileDescriptor.open(path, O_RDWR | O_CREAT, mode: 0o644)
        while flock(file.raw, LOCK_EX) != 0 {
            if errno != EINTR {
                throw FileSystemError.last("flock", path)
            }
        }
        defer { flock(file.raw, LOCK_UN) }
        return try body()
    }
}
