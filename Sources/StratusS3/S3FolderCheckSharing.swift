import Synchronization

/// Shares the `HeadObject` that asks whether a folder above a path is a file between uploads
/// that run at the same time.
///
/// An upload asks whether each folder above its path is a file just before it writes. When
/// another upload sent the same question *after* this upload began, its answer describes the
/// folder at a moment between this upload's start and its write, which is what this upload's
/// own request would have told it; so the upload joins that request instead of sending one.
/// An answer from a request sent before the upload began is never used: nothing is cached
/// beyond the requests in flight or just answered.
final class S3FolderCheckSharing: Sendable {
    /// One question sent: when, and its answer to come.
    private struct Asked: Sendable {
        var sent: ContinuousClock.Instant
        var answer: Task<Bool, any Error>
    }

    /// The latest question per key.
    private let asked = Mutex<[String: Asked]>([:])
    /// How many keys are kept before old ones are dropped.
    private let keptKeys = 256

    /// Whether the object `key` exists, from a request sent at or after `start`: a request in
    /// flight or answered that qualifies, or a new one made by `ask`.
    /// - Parameters:
    ///   - key: The folder's key.
    ///   - start: When the asking upload began.
    ///   - ask: Sends the request: `true` when an object is at `key`.
    func isFile(
        _ key: String, askedSince start: ContinuousClock.Instant, ask: @escaping @Sendable () async throws -> Bool
    ) async throws -> Bool {
        let answer = asked.withLock { asked -> Task<Bool, any Error> in
            if let known = asked[key], known.sent >= start { return known.answer }
            let now = ContinuousClock.now
            if asked.count >= keptKeys {
                asked = asked.filter { $0.value.sent >= start }
            }
            let answer = Task { try await ask() }
            asked[key] = Asked(sent: now, answer: answer)
            return answer
        }
        let result = try await answer.value
        try Task.checkCancellation()
        return result
    }
}
