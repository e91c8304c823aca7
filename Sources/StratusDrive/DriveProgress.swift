import Foundation
import Stratus
import StratusHTTP
import Synchronization

/// Reports transfer progress that never goes backwards, across retries and chunks.
final class DriveProgress: Sendable {
    private let handler: ProgressHandler?
    private let total: Int64?
    private let last = Mutex<Int64>(-1)

    init(_ handler: ProgressHandler?, total: Int64?) {
        self.handler = handler
        self.total = total
    }

    /// Reports `completed` bytes if that is more than reported before.
    func report(_ completed: Int64, total reportedTotal: Int64? = nil) {
        guard let handler else { return }
        let isNew = last.withLock { last in
            guard completed > last else { return false }
            last = completed
            return true
        }
        if isNew { handler(TransferProgress(completedBytes: completed, totalBytes: total ?? reportedTotal)) }
    }

    /// An HTTP progress callback for a request body of content bytes starting at `base`, capped
    /// at `limit` (a multipart body carries framing beyond the content).
    func upload(from base: Int64, limit: Int64) -> (@Sendable (HTTPProgress) -> Void)? {
        guard handler != nil else { return nil }
        return { [self] progress in report(min(base + progress.bytesSent, limit)) }
    }

    /// An HTTP progress callback for a response body.
    func download() -> (@Sendable (HTTPProgress) -> Void)? {
        guard handler != nil else { return nil }
        return { [self] progress in report(progress.bytesReceived, total: progress.bytesToReceive) }
    }
}
