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
    /// done stays done. One record's failure
    /// does not stop the others: it is in ``SyncReport/failures``, and the next sync tries again.
    /// - Returns: What the sync did.
    /// - Throws: ``SyncError`` when the remote cannot be read at all (`service`, with the
    ///   service's error underneath), `cancelled`, or `database`.
    @discardableResult
    public func sync() async throws -> SyncReport {
        try await coalescer.run { [self] in
            try await gate.run {
                let run = SyncRun(progress: configuration.progress)
                do {
                    try await checkRemoteIdentity(run)
                    try await collectChanges(run)
                    try await pullPending(run)
                    // After a push the feed is read again: it absorbs this device's own writes
                    // (so the next sync reads only what is new) and brings what other devices
                    // wrote meanwhile. A conflict settled into a side to push (a merge, a refused
                    // push) makes another round; three at most.
                    for _ in 0..<3 {
                        let pushed = run.report.pushed.count
                        try await pushDirty(run)
                        if run.report.pushed.count > pushed {
                            try await collectChanges(run)
                            try await pullPending(run)
                        }
                        guard try !pushableKeys(run).ready.isEmpty else { break }
                    }
                    let conflicts = try state.read { db in
                        try Row.fetchAll(db, sql: "SELECT type, id FROM conflict ORDER BY type, id").map {
                            try RecordKey(type: $0["type"], id: $0["id"])
                        }
                    }
                    run.update { $0.conflicts = conflicts }
                } catch {
                    throw SyncError.wrapping(error, "Syncing with the remote", otherwise: .database)
                }
                let report = run.report
                logger.debug(
                    "Sync finished: \(report.pulled.count) pulled, \(report.pushed.count) pushed, \(report.conflicts.count) conflicts, \(report.failures.count) failures."
                )
                return report
            }
        }
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
