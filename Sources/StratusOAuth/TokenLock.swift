import Foundation
import Stratus
import StratusFileSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The token file's lock: StratusFileSystem's ``/StratusFileSystem/FileLock`` on `<token>.lock`,
/// with the token store's errors.
enum TokenLock {
    /// Takes the lock, polling so the wait honours `timeout` and cancellation.
    /// - Parameters:
    ///   - url: The lock file, created (0600) when missing; never followed through a link.
    ///   - timeout: How long to wait for another holder.
    /// - Returns: The lock; release it with ``/StratusFileSystem/FileLock/release()``.
    /// - Throws: ``/Stratus/ServiceError``: `timeout` when another holder kept it, `cancelled`,
    ///   or the failure to open or lock the file.
    static func acquire(_ url: URL, timeout: Duration) async throws -> FileLock {
        let lock: FileLock?
        do {
            // Never blocks on open: a FIFO planted at the path would otherwise hang the process.
            lock = try await FileLock.acquire(url.path, flags: O_NOFOLLOW | O_NONBLOCK, mode: 0o600, timeout: timeout)
        } catch let error as FileSystemError {
            if error.errorNumber == ELOOP {
                throw ServiceError(
                    .permissionDenied,
                    "\(url.path) is a symbolic link; lock files must be regular files. Remove the link and try again.")
            }
            throw TokenFile.failure(
                error.operation == "open" ? "open the lock file" : "lock", url, errno: error.errorNumber)
        } catch {
            throw ServiceError(.cancelled, "The task was cancelled while waiting for the token lock \(url.path).")
        }
        guard let lock else {
            throw ServiceError(
                .timeout,
                "Another process held the token lock \(url.path) for longer than \(timeout); try again, or stop the process that holds it."
            )
        }
        return lock
    }
}
