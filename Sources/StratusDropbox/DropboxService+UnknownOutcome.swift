import Stratus

/// Writes whose outcome a failure can leave unknown: a plain upload, a session's `finish`, a
/// restore, a delete. The answer may be lost after Dropbox acted, so after such a failure (a
/// network error, a timeout, a 5xx, an unreadable answer) the adapter looks at the file before
/// it sends anything again. When the write already happened, its result stands; a retry
/// never writes twice, and never meets its own write as a conflict.
extension DropboxService {
    /// Runs a write, checking after each failure of unknown outcome whether it happened.
    /// - Parameters:
    ///   - done: The outcome when the write is found to have happened, or `nil`.
    ///   - write: The write.
    /// - Returns: The write's outcome, or the one `done` found.
    /// - Throws: The write's error when it did not happen and the retry policy allows no more
    ///   attempts, or at once for an error that tells the outcome (a conflict, say).
    func writeOnce<Outcome>(done: () async throws -> Outcome?, _ write: () async throws -> Outcome) async throws -> Outcome {
        let policy = configuration.retryPolicy
        var attempt = 1
        while true {
            do {
                return try await write()
            } catch let error as ServiceError where Self.leavesOutcomeUnknown(error) {
                try Task.checkCancellation()
                if let outcome = try? await done() {
                    logger.info("A lost Dropbox answer hid a completed write.")
                    return outcome
                }
                guard attempt < policy.maximumAttempts else { throw error }
                try await Task.sleep(for: policy.delay(afterAttempt: attempt))
                attempt += 1
            }
        }
    }

    /// The file at a path, when it holds content with this hash.
    func holds(_ path: RemotePath, contentHash: String) async throws -> RemoteFile? {
        let current = try await metadata(of: path)
        return current.contentHash?.value == contentHash ? current : nil
    }

    /// Whether a failed request may have been carried out all the same. A rate limit is not
    /// (Dropbox refused it); an unreadable answer is (it came after the work).
    static func leavesOutcomeUnknown(_ error: ServiceError) -> Bool {
        switch error.code {
        case .network, .timeout, .server, .invalidResponse: true
        default: false
        }
    }
}
