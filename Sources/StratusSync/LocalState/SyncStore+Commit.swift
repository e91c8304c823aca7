import Foundation
import GRDB

/// The one way the store changes records: a transaction that returns the changes it made, which
/// are journaled in it (``ChangeJournal``), so that ``changes()`` reports exactly what committed.
/// A local edit (a save, a resolution, a restore) is written durably and tells automatic sync.
extension SyncStore {
    /// Runs a transaction of the sync's own (applying a remote side, settling a conflict, a way
    /// out) and journals the changes it returns.
    func commit<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> (T, [RecordChange])) async throws -> T {
        let journal = changeJournal
        return try await state.write { db in
            let (result, changes) = try body(db)
            try db.journal(changes, readPosition: journal.readPosition)
            return result
        }
    }

    /// Runs a local edit's transaction durably, journals the changes it returns, and tells
    /// automatic sync that there is something to push.
    func commitLocalEdit<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> (T, [RecordChange]))
        async throws -> T
    {
        let journal = changeJournal
        let result = try await state.writeDurably { db in
            let (result, changes) = try body(db)
            try db.journal(changes, readPosition: journal.readPosition)
            return result
        }
        localEdits.send([()])
        return result
    }

    /// The blocking form of ``commitLocalEdit(_:)``, for the app's synchronous writes.
    func commitLocalEditNow<T: Sendable>(_ body: @Sendable (Database) throws -> (T, [RecordChange])) throws -> T {
        let journal = changeJournal
        let result = try state.writeDurably { db in
            let (result, changes) = try body(db)
            try db.journal(changes, readPosition: journal.readPosition)
            return result
        }
        localEdits.send([()])
        return result
    }
}
