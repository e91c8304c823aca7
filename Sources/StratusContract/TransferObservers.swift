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
            throw failure(
                "\(what) progress went backwards, from \(earlier.completedBytes) to \(later.completedBytes) bytes")
        }
        if let wrong = reports.first(where: { $0.totalBytes != nil && $0.totalBytes != size }) {
            throw failure(
                "\(what) progress reported a total of \(wrong.totalBytes ?? 0) bytes; the content has \(size)")
        }
        if let over = reports.first(where: { $0.completedBytes > size }) {
            throw failure("\(what) progress reported \(over.completedBytes) bytes done of a \(size)-byte content")
        }
        try expectEqual(last.completedBytes, size, "\(what) final progress report (bytes done)")
    }
}

/// Cancels a transfer's task from inside the transfer's own progress handler, the first time a
/// report shows some bytes moved and some still to move, so the cancellation lands midway
/// however fast the transfer runs.
///
/// It remembers where it cancelled: a check whose transfer never reported a point strictly
/// between 0 and the size did not cancel midway, and says so instead of passing. The handler may
/// run before the task is attached; the cancellation is then remembered and applied on attaching.
final class CancelOnProgress: Sendable {
    private struct State {
        var cancelTask: (@Sendable () -> Void)?
        var cancelledAt: Int64?
        var reportCount = 0
        var firstReports: [Int64] = []
    }

    private let size: Int64
    private let state = Mutex(State())

    /// Creates a canceller for a transfer of some size.
    /// - Parameter size: The content's size; a report at or above it is not midway.
    init(size: Int64) {
        self.size = size
    }

    /// The handler to pass in the transfer's options.
    var handler: ProgressHandler {
        { report in self.received(report.completedBytes) }
    }

    /// The bytes done at the report that triggered the cancellation, or `nil` when no report
    /// came strictly between 0 and the size.
    var cancelledAt: Int64? {
        state.withLock { $0.cancelledAt }
    }

    /// Attaches the transfer's task.
    func attach<Success: Sendable>(_ task: Task<Success, any Error>) {
        let cancelNow = state.withLock { state in
            state.cancelTask = { task.cancel() }
            return state.cancelledAt != nil
        }
        if cancelNow {
            task.cancel()
        }
    }

    /// Fails unless the cancellation was requested midway.
    /// - Parameter what: The transfer, for messages.
    /// - Returns: The bytes done when the cancellation was requested.
    func expectCancelledMidway(_ what: String) throws -> Int64 {
        let (cancelledAt, count, reports) = state.withLock { ($0.cancelledAt, $0.reportCount, $0.firstReports) }
        guard let cancelledAt else {
            let shown = reports.map(String.init).joined(separator: ", ") + (count > reports.count ? ", …" : "")
            throw failure(
                "inconclusive: the cancellation did not land mid-transfer. \(what) of \(size) bytes sent \(count) progress reports ([\(shown)]) and none was strictly between 0 and \(size) bytes, so the check could not cancel while bytes were moving; report progress as the bytes move, or raise ContractSuite.Options.cancellationContentSize"
            )
        }
        return cancelledAt
    }

    private func received(_ completed: Int64) {
        let cancelTask: (@Sendable () -> Void)? = state.withLock { state in
            state.reportCount += 1
            if state.firstReports.count < 8 { state.firstReports.append(completed) }
            guard state.cancelledAt == nil, completed > 0, completed < size else { return nil }
            state.cancelledAt = completed
            return state.cancelTask
        }
        cancelTask?()
    }
}
