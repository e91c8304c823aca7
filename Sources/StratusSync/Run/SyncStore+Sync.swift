import Foundation
import GRDB
import Stratus

extension SyncStore {
    /// Exchanges changes with the remote: pulls what other devices changed, pushes what this
    /// device changed, and settles conflicts by each record type's policy (or reports them).
    ///
    /// A call made while a sync runs waits for one follow-up run, shared by every call that
    /// arrives before it starts, so the report always covers what was saved before the call.
    /// Cancelling the task cancels the run it waits for (for every caller sharing it); what was
    /// done stays done. The store's ``status`` follows every run. One record's failure
    /// does not stop the others: it is in ``SyncReport/failures``, and the next sync tries again.
    /// - Returns: What the sync did.
    /// - Throws: ``SyncError`` when the remote cannot be read at all (`service`, with the
    ///   service's error underneath), `cancelled`, or `database`.
    @discardableResult
    public func sync() async throws -> SyncReport {
        try await scheduler.sync { [weak self] in
            guard let self else { throw SyncError(.cancelled, "The store was closed before its sync started.") }
            return try await performSync()
        }
    }

    /// Waits for the running sync or compaction to end and refuses new ones (they throw
    /// `cancelled`); with `cancelRunning`, the running one is cancelled first, which is safe:
    /// what it did stays done, the rest is done by the next process. Use it before the app
    /// exits; automatic sync stops by itself when its task is cancelled or its service group
    /// shuts down.
    /// - Parameter cancelRunning: Whether to cancel the running sync instead of letting it end.
    public func shutdown(cancelRunning: Bool = false) async {
        await scheduler.stop(cancelRunning: cancelRunning)
    }

    /// One sync run, observed (see ``SyncRunTelemetry``): the scheduler makes sure only one
    /// runs at a time.
    private func performSync() async throws -> SyncReport {
        try await SyncRunTelemetry.observe(backend: SyncRunTelemetry.backendName(of: service)) {
            try await runSync()
        }
    }

    /// One sync run: its report and the number of quarantined records it leaves.
    private func runSync() async throws -> (report: SyncReport, quarantined: Int) {
        statusBoard.set(.syncing(nil))
        defer { runsEnded.send([()]) }
        let userProgress = configuration.progress
        let board = statusBoard
        let run = SyncRun(progress: { progress in
            userProgress?(progress)
            board.update(if: \.isSyncing, to: .syncing(progress))
        })
        do {
            try await checkRemoteIdentity(run)
            try await collectChanges(run)
            try await pullPending(run)
            // After a push the feed is read again: it absorbs this device's own writes (so the
            // next sync reads only what is new), brings what other devices wrote meanwhile, and
            // the pull round settles what the push left (a refused push, a write that lost a
            // race). A conflict settled into a side to push (a merge) makes another round;
            // three at most.
            for _ in 0..<3 {
                if try await pushDirty(run) {
                    try await collectChanges(run)
                    try await pullPending(run)
                }
                guard try await !pushableKeys(run).ready.isEmpty else { break }
            }
            let (conflicts, quarantined) = try await state.read { db in
                (try db.conflictKeys(), try db.quarantinedKeys())
            }
            run.update { $0.conflicts = conflicts }
            let report = run.report
            logger.debug(
                "Sync finished: \(report.pulled.count) pulled, \(report.pushed.count) pushed, \(report.conflicts.count) conflicts, \(report.failures.count) failures."
            )
            statusBoard.set(Self.status(after: report, quarantined: quarantined))
            return (report, quarantined.count)
        } catch {
            let failure = SyncError.wrapping(error, "Syncing with the remote", otherwise: .database)
            statusBoard.failed(failure, nextAttempt: nil)
            throw failure
        }
    }

    /// The status a finished sync leaves: a record that failed for a reason that may pass makes
    /// it failing; conflicts and quarantined records make it need attention.
    static func status(after report: SyncReport, quarantined: [RecordKey]) -> SyncStatus {
        let quarantinedKeys = Set(quarantined)
        if let failure = report.failures.first(where: { !quarantinedKeys.contains($0.key) }) {
            return .failing(failure.error, nextAttempt: nil)
        }
        if !report.conflicts.isEmpty || !quarantined.isEmpty {
            return .needsAttention(conflicts: report.conflicts, quarantined: quarantined)
        }
        return .idle(lastSynced: Date())
    }

    /// Runs `work` for each item with at most ``SyncConfiguration/maximumConcurrentTransfers``
    /// at once.
    func forEachConcurrently<Item: Sendable>(_ items: [Item], _ work: @escaping @Sendable (Item) async throws -> Void)
        async throws
    {
        let width = max(1, configuration.maximumConcurrentTransfers)
        try await withThrowingTaskGroup(of: Void.self) { group in
            var iterator = items.makeIterator()
            for _ in 0..<width {
                guard let item = iterator.next() else { break }
                group.addTask { try await work(item) }
            }
            while try await group.next() != nil {
                if let item = iterator.next() {
                    group.addTask { try await work(item) }
                }
            }
        }
    }

    /// Calls the test hook for a named point.
    func reach(_ checkpoint: SyncCheckpoint) {
        configuration.checkpoint?(checkpoint)
    }
}
