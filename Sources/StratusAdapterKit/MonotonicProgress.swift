public import Stratus
public import StratusHTTP
import Synchronization

/// Reports transfer progress that never goes backwards, across retries, chunks and parts.
public final class MonotonicProgress: Sendable {
    private let handler: ProgressHandler?
    private let total: Int64?
    private let last = Mutex<Int64>(-1)

    /// Creates a reporter.
    /// - Parameters:
    ///   - handler: The caller's progress handler; without one, nothing is reported and no HTTP
    ///     progress callback is made.
    ///   - total: The size of the transfer when it is known ahead.
    public init(_ handler: ProgressHandler?, total: Int64?) {
        self.handler = handler
        self.total = total
    }

    /// Reports `completed` bytes if that is more than reported before.
    /// - Parameters:
    ///   - completed: The bytes done so far.
    ///   - reportedTotal: The size as the server reports it, used when none was known ahead.
    public func report(_ completed: Int64, total reportedTotal: Int64? = nil) {
        guard let handler else { return }
        let isNew = last.withLock { last in
            guard completed > last else { return false }
            last = completed
            return true
        }
        if isNew { handler(TransferProgress(completedBytes: completed, totalBytes: total ?? reportedTotal)) }
    }

    /// An HTTP progress callback for a request body of content bytes starting at `base`.
    /// - Parameters:
    ///   - base: How many content bytes went before this request.
    ///   - limit: The most to report, for a body that carries framing beyond the content (a
    ///     multipart body); no cap when `nil`.
    public func upload(from base: Int64, limit: Int64? = nil) -> (@Sendable (HTTPProgress) -> Void)? {
        guard handler != nil else { return nil }
        return { [self] progress in
            let sent = base + progress.bytesSent
            report(limit.map { min(sent, $0) } ?? sent)
        }
    }

    /// An HTTP progress callback for a response body.
    public func download() -> (@Sendable (HTTPProgress) -> Void)? {
        guard handler != nil else { return nil }
        return { [self] progress in report(progress.bytesReceived, total: progress.bytesToReceive) }
    }
}
