import Stratus
import StratusAdapterKit

/// Writes whose outcome a failure can leave unknown: a plain upload, a session's `finish`, a
/// restore, a delete. The answer may be lost after Dropbox acted, so after such a failure (a
/// network error, a timeout, a 5xx, an unreadable answer) the adapter looks at the file before
/// it sends anything again. When the write already happened, its result stands; a retry
/// never writes twice, and never meets its own write as a conflict.
extension DropboxService {
    /// Runs a write, checking after each failure of unknown outcome whether it happened: the
    /// retry policy's one "look first" loop (`RetryPolicy.runWrite(lookFirst:_:)`). A rate
    /// limit is waited out (its `Retry-After` honoured) and the write sent again; the write runs
    /// at most `maximumAttempts` times in all, so it must send its request with
    /// `Repetition.never`.
    /// - Parameters:
    ///   - done: The outcome when the write is found to have happened, or `nil`; its failures
    ///     count as "not found" (the write is sent again).
    ///   - write: The write.
    /// - Returns: The write's outcome, or the one `done` found.
    /// - Throws: The write's error when it did not happen and the retry policy allows no more
    ///   attempts, or at once for an error that tells the outcome (a conflict, say).
    func writeOnce<Outcome: Sendable>(
        done: @Sendable () async throws -> Outcome?,
        _ write: @Sendable () async throws -> Outcome
    ) async throws -> Outcome {
        let logger = logger
        return try await configuration.retryPolicy.runWrite(lookFirst: {
            guard let outcome = try? await done() else { return nil }
            logger.info("A lost Dropbox answer hid a completed write.")
            return outcome
        }) { _ in
            try await write()
        }
    }

    /// The file at a path, when it holds content with this hash.
    func holds(_ path: RemotePath, contentHash: String) async throws -> RemoteFile? {
        let current = try await metadata(of: path)
        return current.contentHash?.value == contentHash ? current : nil
    }
}
