import Foundation
import Synchronization

/// What one sync has done so far: the report it builds and the progress it announces. Shared by
/// the sync's concurrent transfers.
final class SyncRun: Sendable {
    private struct Counters {
        var report = SyncReport()
        var phase = SyncProgress.Phase.listing
        var completed = 0
        var total = 0
        var bytes: Int64 = 0
    }

    private let counters = Mutex(Counters())
    private let handler: (@Sendable (SyncProgress) -> Void)?

    init(progress: (@Sendable (SyncProgress) -> Void)?) {
        handler = progress
    }

    var report: SyncReport { counters.withLock { $0.report } }

    func update(_ change: @Sendable (inout SyncReport) -> Void) {
        counters.withLock { change(&$0.report) }
    }

    /// Reports what a committed transaction did to a record.
    func record(_ applied: Applied, for key: RecordKey) {
        guard applied.pulled || applied.resolved else { return }
        update { report in
            if applied.pulled { report.pulled.append(key) }
            if applied.resolved { report.resolved.append(key) }
        }
    }

    /// Reports why a record did not sync: one entry per record, the latest failure.
    func fail(_ key: RecordKey, path: String, _ error: SyncError) {
        update { report in
            report.failures.removeAll { $0.key == key }
            report.failures.append(RecordFailure(key: key, path: path, error: error))
        }
    }

    /// The document paths that already failed in this run.
    var failedPaths: Set<String> { counters.withLock { Set($0.report.failures.map(\.path)) } }

    func begin(_ phase: SyncProgress.Phase, total: Int) {
        announce { counters in
            counters.phase = phase
            counters.completed = 0
            counters.total = total
        }
    }

    func finishedRecord() {
        announce { $0.completed += 1 }
    }

    /// Counts bytes moved (saturating: sizes come from servers).
    func moved(bytes: Int64) {
        announce { counters in
            let (sum, overflow) = counters.bytes.addingReportingOverflow(max(0, bytes))
            counters.bytes = overflow ? .max : sum
        }
    }

    private func announce(_ change: (inout Counters) -> Void) {
        let progress = counters.withLock { counters in
            change(&counters)
            return SyncProgress(
                phase: counters.phase, completedRecords: counters.completed, totalRecords: counters.total,
                transferredBytes: counters.bytes)
        }
        handler?(progress)
    }
}
