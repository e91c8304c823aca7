import Foundation
import Stratus

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive `flock` on a file, held until ``release()``.
struct FileLock {
    private let descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

    /// Takes the lock, polling in short sleeps so the wait honours `timeout` and cancellation.
    ///
    /// `flock` locks belong to an open file description, so two stores in one process exclude
    /// each other exactly as two processes do (POSIX `fcntl` locks would not).
    static func acquire(_ url: URL, timeout: Duration) async throws -> FileLock {
        let descriptor = try TokenFile.open(url, flags: O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, purpose: "open the lock file")
        let deadline = ContinuousClock.now + timeout
        while true {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
                return FileLock(descriptor: descriptor)
            }
            let error = errno
            guard error == EWOULDBLOCK || error == EINTR else {
                close(descriptor)
                throw TokenFile.failure("lock", url, errno: error)
            }
            guard ContinuousClock.now < deadline else {
                close(descriptor)
                throw ServiceError(
                    .timeout,
                    "Another process held the token lock \(url.path) for longer than \(timeout); try again, or stop the process that holds it."
                )
            }
            do {
                try await Task.sleep(for: .milliseconds(15))
            } catch {
                close(descriptor)
                throw ServiceError(.cancelled, "The task was cancelled while waiting for the token lock \(url.path).")
            }
        }
    }

    /// Releases the lock and closes the descriptor; call it exactly once.
    func release() {
        _ = flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
