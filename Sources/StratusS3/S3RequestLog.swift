import Synchronization

/// The requests a service sends, kept only while something records them: the tests count
/// with it how many requests an operation makes. Each attempt of a retried request counts.
final class S3RequestLog: Sendable {
    /// The actions sent since ``start()``; `nil` when nothing records.
    private let actions = Mutex<[String]?>(nil)

    /// Starts recording (again, from nothing).
    func start() {
        actions.withLock { $0 = [] }
    }

    /// Stops recording.
    /// - Returns: The action of every request sent since ``start()``, in the order sent, such
    ///   as `PutObject of saves/a.bin`.
    func stop() -> [String] {
        actions.withLock { actions in
            defer { actions = nil }
            return actions ?? []
        }
    }

    /// Notes one request, when recording.
    func record(_ action: String) {
        actions.withLock { $0?.append(action) }
    }
}
