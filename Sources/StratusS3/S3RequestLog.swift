import Synchronization

/// The requests a service sends, kept only while something records them: the tests count
/// with it how many requests an operation makes, and how many were open at once. Each attempt
/// of a retried request counts.
final class S3RequestLog: Sendable {
    private struct Recording {
        /// The actions sent, in the order sent.
        var actions: [String] = []
        /// The requests sent and not answered yet.
        var open = 0
        /// The most requests open at once.
        var mostOpen = 0
    }

    /// `nil` when nothing records.
    private let recording = Mutex<Recording?>(nil)

    /// Starts recording (again, from nothing).
    func start() {
        recording.withLock { $0 = Recording() }
    }

    /// Stops recording.
    /// - Returns: The action of every request sent since ``start()``, in the order sent, such
    ///   as `PutObject of saves/a.bin`, and the most requests that were open at once.
    func stop() -> (actions: [String], mostOpen: Int) {
        recording.withLock { recording in
            defer { recording = nil }
            return (recording?.actions ?? [], recording?.mostOpen ?? 0)
        }
    }

    /// Notes a request going out, when recording.
    func began(_ action: String) {
        recording.withLock { recording in
            guard let open = recording?.open, let mostOpen = recording?.mostOpen else { return }
            recording?.actions.append(action)
            recording?.open = open + 1
            recording?.mostOpen = max(mostOpen, open + 1)
        }
    }

    /// Notes a request answered or failed, when recording.
    func ended() {
        recording.withLock { recording in
            guard let open = recording?.open else { return }
            recording?.open = max(0, open - 1)
        }
    }
}
