import Foundation
import GRDB

/// Applying a remote document to the local state, and settling conflicts: the one place that
/// decides what a record becomes. Every function here runs inside a write transaction.
extension SyncStore {
    /// Applies what the remote holds for a record at a version: a document, or nothing (the
    /// provider deleted the file).
    /// - Returns: The changes to announce.
    func applyRemote(_ db: Database, key: RecordKey, version: String?, document remote: RecordDocument?, run: SyncRun?)
        throws -> [RecordChange]
    {
        let existing = try RecordRow.fetch(db, key)
        let outcome = RemoteOutcome.decide(local: existing, version: version, remote: remote)
        switch outcome {
        case .nothing:
            return []
        case .pushAgainAsNew, .removeVanished:
            guard var row = existing else { return [] }
            row.baseVersion = nil
            row.baseDocument = nil
            row.pushedEdit = nil
            if outcome == .pushAgainAsNew {
                try row.save(db)
                return []
            }
            try db.archive(row.document, reason: "The record's document was removed from the remote.")
            row.document.isDeleted = true
            row.document.value = .null
            row.document.files = [:]
            row.revision += 1
            try row.save(db)
            return [RecordChange(key: key, kind: .deleted, origin: .remote)]
        case .insert:
            guard let remote, let version else { return [] }
            try RecordRow(document: remote, revision: 1, dirty: false, baseVersion: version, baseDocument: remote).save(
                db)
            run?.update { $0.pulled.append(key) }
            return remote.isDeleted ? [] : [RecordChange(key: key, kind: .updated, origin: .remote)]
        case .fastForward:
            guard var row = existing, let remote, let version else { return [] }
            row.document = remote
            row.baseVersion = version
            row.baseDocument = remote
            row.pushedEdit = nil
            row.revision += 1
            try row.save(db)
            try db.execute(sql: "DELETE FROM conflict WHERE type = ? AND id = ?", arguments: [key.type, key.id])
            run?.update { $0.pulled.append(key) }
            return [RecordChange(key: key, kind: remote.isDeleted ? .deleted : .updated, origin: .remote)]
        case .adoptOwnWrite(let clean):
            guard var row = existing, let remote, let version else { return [] }
            if clean { row.dirty = false }
            row.baseVersion = version
            row.baseDocument = remote
            row.pushedEdit = nil
            try row.save(db)
            try db.execute(sql: "DELETE FROM conflict WHERE type = ? AND id = ?", arguments: [key.type, key.id])
            return []
        case .conflict:
            guard var row = existing, let remote, let version else { return [] }
            return try settle(db, &row, remoteVersion: version, remote: remote, run: run)
        }
    }

    /// Both sides changed: the record type's policy decides.
    /// - Parameter remoteIsCurrent: Whether `remote` is what the remote holds at
    ///   `remoteVersion`; false for a write that lost a race and is in the history only, so a
    ///   decision for it must be pushed.
    func settle(
        _ db: Database, _ row: inout RecordRow, remoteVersion: String, remote: RecordDocument,
        remoteIsCurrent: Bool = true, run: SyncRun?
    ) throws -> [RecordChange] {
        let input = MergeInput(
            key: row.key,
            base: row.baseDocument.map(makeRecord),
            local: makeRecord(row.document),
            remote: makeRecord(remote)
        )
        let (decision, failure) = configuration.policy(for: row.key.type).rule.decide(input)
        if let failure {
            logger.warning(
                "The merge rule for \(row.key.type) failed on \(row.key); the conflict is left to the app: \(failure)")
        }
        return try apply(
            decision, db, &row, remoteVersion: remoteVersion, remote: remote, remoteIsCurrent: remoteIsCurrent, run: run
        )
    }

    /// Carries out a decision about a conflict. The side that loses is never destroyed: the
    /// remote side stays in the service's history, a replaced local side goes to the archive.
    func apply(
        _ decision: MergeDecision,
        _ db: Database,
        _ row: inout RecordRow,
        remoteVersion: String,
        remote: RecordDocument,
        remoteIsCurrent: Bool = true,
        run: SyncRun?
    ) throws -> [RecordChange] {
        let key = row.key
        var changes: [RecordChange] = []
        switch decision {
        case .manual:
            let known = try String.fetchOne(
                db, sql: "SELECT remoteVersion FROM conflict WHERE type = ? AND id = ?", arguments: [key.type, key.id])
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO conflict (type, id, remoteVersion, remoteDocument, remoteIsCurrent, detected)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [key.type, key.id, remoteVersion, remote.encoded(), remoteIsCurrent, Date()]
            )
            row.dirty = true
            try row.save(db)
            if known != remoteVersion { changes.append(RecordChange(key: key, kind: .conflict, origin: .remote)) }
            return changes
        case .keepLocal:
            row.baseVersion = remoteVersion
            if remoteIsCurrent { row.baseDocument = remote }
        case .keepRemote:
            try db.archive(row.document, reason: "A conflict was settled in favour of the remote side.")
            row.document = remote
            row.baseVersion = remoteVersion
            if remoteIsCurrent { row.baseDocument = remote }
            row.dirty = !remoteIsCurrent
            row.revision += 1
            changes.append(RecordChange(key: key, kind: remote.isDeleted ? .deleted : .updated, origin: .remote))
        case .merged(let value, let files):
            for file in files.values where !blobs.contains(file.sha256) {
                throw SyncError(
                    .invalidValue,
                    "The merged record \(key) names a file (\(file.sha256)) this store does not hold; merge from the sides' own files."
                )
            }
            try db.archive(row.document, reason: "A conflict was settled by a merge.")
            row.document = RecordDocument(
                key: key,
                edit: RecordDocument.newEdit(),
                device: deviceName,
                modified: Date(),
                isDeleted: false,
                value: value,
                files: files.mapValues { RecordDocument.FileEntry(sha256: $0.sha256, size: $0.size) },
                unknownFields: remote.unknownFields.merging(row.document.unknownFields) { remoteField, _ in remoteField
                }
            )
            row.baseVersion = remoteVersion
            if remoteIsCurrent { row.baseDocument = remote }
            row.dirty = true
            row.revision += 1
            changes.append(RecordChange(key: key, kind: .updated, origin: .merge))
        }
        row.pushedEdit = nil
        try row.save(db)
        try db.execute(sql: "DELETE FROM conflict WHERE type = ? AND id = ?", arguments: [key.type, key.id])
        run?.update { $0.resolved.append(key) }
        return changes
    }
}

extension RecordDocument {
    /// Whether two documents say the same thing (value, files, deleted), whoever wrote them.
    func hasSameContent(as other: RecordDocument) -> Bool {
        isDeleted == other.isDeleted && value == other.value && files == other.files
    }
}
