public import Foundation
import Stratus
import StratusAdapterKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A ``TokenStore`` that keeps the token as JSON in a file only its owner can read.
///
/// - The file is created with permissions 0600. Like ssh with a private key, the store refuses
///   to read or replace a file that its group or others may access, with an error that says how
///   to fix it (`chmod 600 <path>`); also a file another user owns, anything but a regular file
///   (every open is non-blocking, so a FIFO at the path fails at once instead of hanging), and a
///   folder that another user owns or that group or others may write to.
/// - Every write goes to a temporary file in the same folder, is flushed to disk and renamed over
///   the old file, so a reader sees the old token or the new one, never half of one.
/// - ``update(_:)`` and ``save(_:)`` hold an exclusive `flock` on a lock file beside the token
///   file (`<name>.lock`; the token file itself cannot carry the lock, since each write replaces
///   it). Two processes, or two stores in one process, never interleave. The kernel drops the
///   lock when its holder dies, so a crash leaves nothing stale behind.
/// - A lock that stays taken is waited for up to ``lockTimeout``, then the call fails instead of
///   hanging.
public final class FileTokenStore: TokenStore {
    /// The token file.
    public let url: URL
    /// The lock file beside it.
    public let lockURL: URL
    /// The longest an update or save waits for another holder of the lock. The holder may be
    /// refreshing over the network, so this is longer than one token request.
    public let lockTimeout: Duration

    /// Serializes this store's own callers, so they queue instead of polling the file lock.
    private let localLock = AsyncLock(cancelledMessage: "The task was cancelled while waiting for the token store.")

    /// Creates a store; nothing is touched on disk until the first call.
    /// - Parameters:
    ///   - url: The token file. Its folder is created (mode 0700) when missing.
    ///   - lockTimeout: How long to wait for another holder of the lock.
    public init(url: URL, lockTimeout: Duration = .seconds(120)) {
        self.url = url
        self.lockURL = url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + ".lock")
        self.lockTimeout = lockTimeout
    }

    /// Reads the token file without taking the lock (each write replaces the file whole); `nil` when there is none.
    public func load() async throws -> OAuthToken? {
        try TokenFile.read(url)
    }

    /// Writes the token under the file lock; refuses an existing file that is unsafe (see above), replaces a corrupt one.
    public func save(_ token: OAuthToken) async throws {
        try await withExclusiveLock {
            // Refuse a file others could already read, as every other call does; a corrupt
            // file, though, may be replaced.
            try TokenFile.checkUsable(url)
            try TokenFile.write(token, to: url)
        }
    }

    /// Reads, transforms and writes the token under the file lock; the file is rewritten only when the token changed.
    public func update(_ transform: @Sendable (OAuthToken?) async throws -> OAuthToken) async throws -> OAuthToken {
        try await withExclusiveLock {
            let stored = try TokenFile.read(url)
            let result = try await transform(stored)
            if result != stored {
                try TokenFile.write(result, to: url)
            }
            return result
        }
    }

    /// Removes the token file under the file lock.
    public func clear() async throws {
        try await withExclusiveLock {
            try TokenFile.remove(url)
        }
    }

    private func withExclusiveLock<Result: Sendable>(_ body: () async throws -> Result) async throws -> Result {
        try await localLock.withLock {
            try TokenFile.createFolder(of: url)
            let lock = try await TokenLock.acquire(lockURL, timeout: lockTimeout)
            do {
                let result = try await body()
                lock.release()
                return result
            } catch {
                lock.release()
                throw error
            }
        }
    }
}
