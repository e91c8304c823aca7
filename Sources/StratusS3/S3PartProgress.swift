import StratusAdapterKit
import StratusHTTP
import Synchronization

/// The progress of a multipart upload whose parts go up at the same time: the bytes of the
/// parts done plus those sent so far of each part in flight, reported through a
/// ``/StratusAdapterKit/MonotonicProgress`` (which never goes backwards, so a part sent again
/// after a retry does not lower it).
final class S3PartProgress: Sendable {
    private struct State {
        /// The bytes of the parts done, before this upload and in it.
        var done: Int64
        /// The bytes sent so far of each part in flight, by part number.
        var inFlight: [Int: Int64] = [:]

        var total: Int64 { inFlight.values.reduce(done, +) }
    }

    private let progress: MonotonicProgress
    private let state: Mutex<State>

    /// Creates the progress of an upload.
    /// - Parameters:
    ///   - progress: Where the progress goes.
    ///   - alreadySent: The bytes of the parts the server had already (a resumed upload).
    init(_ progress: MonotonicProgress, alreadySent: Int64) {
        self.progress = progress
        self.state = Mutex(State(done: alreadySent))
    }

    /// The HTTP progress callback of one part's request; `nil` when nobody listens.
    func callback(part number: Int, size: Int64) -> (@Sendable (HTTPProgress) -> Void)? {
        guard progress.upload(from: 0) != nil else { return nil }
        return { [self] http in
            let sent = max(0, min(http.bytesSent, size))
            let total = state.withLock { state in
                state.inFlight[number] = sent
                return state.total
            }
            progress.report(total)
        }
    }

    /// Counts a part the server has stored.
    func finished(part number: Int, size: Int64) {
        let total = state.withLock { state in
            state.inFlight[number] = nil
            state.done += size
            return state.total
        }
        progress.report(total)
    }
}
