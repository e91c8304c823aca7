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

/// Cancels a transfer's task from inside the transfer's own progress handler, the first time
/// some bytes have moved, so the cancellation lands midway however fast the transfer runs.
///
/// The handler may run before the task is attached; the cancellation is then remembered and
/// applied on attaching.
final class CancelOnProgress: Sendable {
    private struct State {
        var cancelTask: (@Sendable () -> Void)?
        var requested = false
    }

    private let state = Mutex(State())

    /// The handler to pass in the transfer's options.
    var handler: ProgressHandler {
        { report in
            if report.completedBytes > 0 {
                self.requestCancellation()
            }
        }
    }

    /// Attaches the transfer's task.
    func attach<Success: Sendable>(_ task: Task<Success, any Error>) {
        let cancelNow = state.withLock { state in
            state.cancelTask = { task.cancel() }
            return state.requested
        }
        if cancelNow {
            task.cancel()
        }
    }

    private func requestCancellation() {
        let cancelTask = state.withLock { state in
            state.requested = true
            return state.cancelTask
        }
        cancelTask?()
    }
}
