import Synchronization

/// What the server received, per token in the URL, so that the benchmark can check each tool's
/// uploads and small GETs from the server's side.
final class ServerCounters: Sendable {
    private struct State {
        var uploadedBytes: [String: Int64] = [:]
        var smallRequests: [String: Int] = [:]
    }

    private let state = Mutex(State())

    func recordUpload(token: String, bytes: Int64) {
        state.withLock { $0.uploadedBytes[token, default: 0] += bytes }
    }

    func recordSmallRequest(token: String) {
        state.withLock { $0.smallRequests[token, default: 0] += 1 }
    }

    func uploadedBytes(token: String) -> Int64 {
        state.withLock { $0.uploadedBytes[token] ?? 0 }
    }

    func smallRequests(token: String) -> Int {
        state.withLock { $0.smallRequests[token] ?? 0 }
    }
}
