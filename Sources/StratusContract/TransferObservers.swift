import Stratus
import Synchronization

/// Keeps every progress report a transfer sends, in order.
final class ProgressRecorder: Sendable {
    private let reports = Mutex<[TransferProgress]>([])

    /// The handler to pass in the transfer's options.
    var handler: ProgressHandler {
        { report in self.reports.withLock { $0.append(report) } }
    }

    /// The reports received so far.
    var received: [TransferProgress] {
        reports.withLock { $0 }
    }

    /// Fails unless the reports only grow, never claim another total, and end at the size.
    /// - Parameters:
    ///   - size: The content's size.
    ///   - what: The transfer, for messages.
    /// - Throws: ``ExpectationFailure``.
    func expectGrowing(to size: Int64, _ what: String) throws {
        let reports = received
        guard let last = reports.last else {
            throw failure("\(what) sent no progress report; expected reports ending at \(size) bytes")
        }
        for (earlier, later) in zip(reports, reports.dropFirst()) where later.completedBytes < earlier.completedBytes {
            throw failure("\(what) progress went backwards, from \(earlier.completedBytes) to \(later.completedBytes) bytes")
        }
        if let wrong = reports.first(where: { $0.totalBytes != nil && $0.totalBytes != size }) {
            throw failure("\(what) progress reported a total of \(wrong.totalBytes ?? 0) bytes; the content has \(size)")
        }
        if let over = reports.first(where: { $0.completedBytes > size }) {
            throw failure("\(what) progress reported \(over.completedBytes) bytes done of a \(size)-byte content")
        }
        try expectEqual(last.completedBytes, size, "\(what) final progress report (bytes done)")
    }
}

/// Wakes one waiter the first time a transfer reports progress, or when the transfer ends,
/// whichever comes first; used to cancel a transfer midway.
final class FirstProgress: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// The handler to pass in the transfer's options: it signals once some bytes have moved.
    var handler: ProgressHandler {
        { report in
            if report.completedBytes > 0 {
                self.continuation.yield()
            }
        }
    }

    /// Signals that the transfer ended.
    func transferEnded() {
        continuation.finish()
    }

    /// Waits for the first signal.
    func wait() async {
        for await _ in stream {
            return
        }
    }
}
