import Foundation
import GRDB
import Stratus

/// The mass-deletion guard: documents that simply vanish from the remote (removed by hand or by
/// another tool; a device deletes by writing a tombstone) remove records on this device. A
/// document is vanished whether the feed, a listing or a download says so; every vanished entry
/// waits in `pendingPull` until the documents still there are applied, and when applying the
/// vanished ones would remove more than ``SyncConfiguration/massDeletionLimit`` of the records,
/// the sync stops before any is applied, until the app accepts.
extension SyncStore {
    /// The setting that lets the next sync apply vanished documents past the limit.
    static let acceptDeletionsSetting = "acceptRemoteDeletions"

    /// Lets the next ``sync()`` apply the removals that stopped a sync with
    /// ``SyncError/Code/massDeletion``: the records whose documents vanished from the remote
    /// are archived (``archived(_:)``) and deleted on this device. The permission holds for one
    /// sync; a later mass removal stops again.
    /// - Throws: ``SyncError`` (`database`) when the local state cannot be written.
    public func acceptRemoteDeletions() throws {
        try state.write { db in try db.setSetting(Self.acceptDeletionsSetting, "1") }
        wayOutTaken.send([()])
    }

    /// Refuses to apply the vanished pending entries when they would remove too many records.
    /// Runs before any of them is applied, over all of them at once.
    /// - Throws: ``SyncError`` (`massDeletion`) with the count.
    func checkMassDeletion(_ db: Database) throws {
        let vanished = Set(try db.vanishedPendingPaths())
        let minimum = max(0, configuration.massDeletionMinimum)
        guard vanished.count > minimum else { return }
        if try db.setting(Self.acceptDeletionsSetting) != nil { return }
        let keys = Set(vanished.compactMap { (try? RemotePath($0)).flatMap(layout.key(ofDocument:)) })
        var live = 0
        var removed = 0
        for row in try RecordRow.all(db) where !row.document.isDeleted {
            live += 1
            // A record with local changes is pushed again as new, not removed.
            if !row.dirty, row.baseVersion != nil, keys.contains(row.key) { removed += 1 }
        }
        guard
            SafetyRailDecisions.isMassDeletion(
                removed: removed, live: live, limit: configuration.massDeletionLimit, minimum: minimum)
        else { return }
        throw SyncError(
            .massDeletion,
            "The documents of \(removed) of this device's \(live) records are gone from the remote folder \(layout.folder) without a tombstone (removed by hand or by another tool, not deleted by a device). Applying that would remove them here; nothing was applied. If they were removed on purpose, call acceptRemoteDeletions() and sync again (the records go to the archive). Otherwise put the documents back, or seed the remote again from this device (reseedRemote()).",
            recordCount: removed)
    }

    /// Ends a permission given by ``acceptRemoteDeletions()`` once a pull has applied what it
    /// allowed.
    func endAcceptedDeletions() async throws {
        guard try await state.read({ try $0.setting(Self.acceptDeletionsSetting) }) != nil else { return }
        try await state.write { db in try db.setSetting(Self.acceptDeletionsSetting, nil) }
    }
}
