import Foundation
import GRDB
import Stratus

/// Applying a remote document to the local state, and settling conflicts: the one place that
/// carries out what ``RemoteOutcome`` and the record type's policy decide. Every function here
/// runs inside a write transaction and returns what it did, which the caller reports once the
/// transaction has committed (a rollback reports nothing).
extension SyncStore {
    /// Applies what the remote holds for a record at a version: a document, or nothing (the
    /// provider deleted the file).
    /// - Returns: What was done: the changes to announce, and whether the record was pulled or
    ///   a conflict settled.
    func applyRemote(_ db: Database, key: RecordKey, version: VersionID?, document remote: RecordDocument?) throws
        -> Applied
    {
        let existing = try RecordRow.fetch(db, key)
        let outcome = RemoteOutcome.decide(local: existing, version: version, remote: remote)
        switch outcome {
        case .nothing:
            return Applied()
        case .pushAgainAsNew, .removeVanished:
            guard var row = existing else { return Applied() }
            row.baseVersion = nil
            row.baseDocument = nil
            row.pushedEdit = nil
            if outcome == .pushAgainAsNew {
                try row.save(db)
                return Applied()
            }
            try db.archive(row.document, reason: "The record's document was removed from the remote.")
            row.document.isDeleted = true
            row.document.value = .null
            row.document.files = [:]
            row.revision += 1
            try row.save(db)
            return Applied(changes: [RecordChange(key: key, kind: .archived, origin: .remote)])
        case .insert:
            guard let remote, let version else { return Applied() }
            try RecordRow(document: remote, revision: 1, dirty: false, baseVersion: version, baseDocument: remote).save(
                db)
            return Applied(
                changes: remote.isDeleted ? [] : [RecordChange(key: key, kind: .updated, origin: .remote)], pulled: true
            )
        case .fastForward:
            guard var row = existing, let remote, let version else { return Applied() }
            row.document = remote
            row.baseVersion = version
            row.baseDocument = remote
            row.pushedEdit = nil
            row.revision += 1
            try row.save(db)
            try db.deleteConflict(of: key)
            return Applied(
                changes: [RecordChange(key: key, kind: remote.isDeleted ? .deleted : .updated, origin: .remote)],
                pulled: true)
        case .adoptOwnWrite(let clean):
            guard var row = existing, let remote, let version else { return Applied() }
            if clean { row.dirty = false }
            row.baseVersion = version
            row.baseDocument = remote
            row.pushedEdit = nil
            try row.save(db)
            try db.deleteConflict(of: key)
            return Applied()
        case .conflict:
            guard var row = existing, let remote, let version else { return Applied() }
            return try settle(db, &row, remoteVersion: version, remote: remote)
        }
    }

    /// Both sides changed: the record type's policy decides.
    /// - Parameter remoteIsCurrent: Whether `remote` is what the remote holds at
    ///   `remoteVersion`; false for a write that lost a race and is in the history only, so a
    ///   decision for it must be pushed.
    func settle(
        _ db: Database, _ row: inout RecordRow, remoteVersion: VersionID, remote: RecordDocument,
        remoteIsCurrent: Bool = true
    ) throws -> Applied {
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
            decision, db, &row, remoteVersion: remoteVersion, remote: remote, remoteIsCurrent: remoteIsCurrent)
    }

    /// Carries out a decision about a conflict. The side that loses is never destroyed: the
    /// remote side stays in the service's history, a replaced local side goes to the archive.
    func apply(
        _ decision: MergeDecision,
        _ db: Database,
        _ row: inout RecordRow,
        remoteVersion: VersionID,
        remote: RecordDocument,
        remoteIsCurrent: Bool = true
    ) throws -> Applied {
        let key = row.key
        var changes: [RecordChange] = []
        switch decision {
        case .manual:
            let known = try db.conflictRemoteVersion(of: key)
            try ConflictRow(
                key: key, remoteVersion: remoteVersion, remoteDocument: remote, remoteIsCurrent: remoteIsCurrent,
                detected: Date()
            ).save(db)
            row.dirty = true
            try row.save(db)
            if known != remoteVersion { changes.append(RecordChange(key: key, kind: .conflict, origin: .remote)) }
            return Applied(changes: changes)
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
        try db.deleteConflict(of: key)
        return Applied(changes: changes, resolved: true)
    }
}

/// What applying a remote document or settling a conflict did, reported once its transaction
/// committed.
struct Applied: Sendable {
    /// The changes to announce.
    var changes: [RecordChange] = []
    /// Whether the remote side was taken.
    var pulled = false
    /// Whether a conflict was settled.
    var resolved = false
}

extension RecordDocument {
    /// Whether two documents say the same thing (value, files, deleted), whoever wrote them.
    func hasSameContent(as other: RecordDocument) -> Bool {
        isDeleted == other.isDeleted && value == other.value && files == other.files
    }
}
