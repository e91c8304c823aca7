import Foundation
import GRDB
import Stratus

/// One row of the `record` table.
struct RecordRow: Sendable {
    /// The current local document.
    var document: RecordDocument
    /// Counts the edits to the row.
    var revision: Int64
    /// Whether the record has local changes to push.
    var dirty: Bool
    /// The remote version the document derives from; `nil` for a record never synced.
    var baseVersion: VersionID?
    /// The document at `baseVersion`: the last version both sides agreed on.
    var baseDocument: RecordDocument?
    /// The edit id of a push in flight, so a commit whose answer was lost is recognised.
    var pushedEdit: String?

    /// The record.
    var key: RecordKey { document.key }

    /// The row of a record, or `nil` when there is none.
    static func fetch(_ db: Database, _ key: RecordKey) throws -> RecordRow? {
        try Row.fetchOne(db, sql: "SELECT * FROM record WHERE type = ? AND id = ?", arguments: [key.type, key.id]).map(
            RecordRow.init(row:))
    }

    /// Every row, in the table's order.
    static func all(_ db: Database) throws -> [RecordRow] {
        try Row.fetchAll(db, sql: "SELECT * FROM record").map(RecordRow.init(row:))
    }

    /// Every row of a type, ordered by id.
    static func all(_ db: Database, ofType type: String) throws -> [RecordRow] {
        try Row.fetchAll(db, sql: "SELECT * FROM record WHERE type = ? ORDER BY id", arguments: [type]).map(
            RecordRow.init(row:))
    }

    /// A row to save.
    init(
        document: RecordDocument, revision: Int64, dirty: Bool, baseVersion: VersionID?, baseDocument: RecordDocument?,
        pushedEdit: String? = nil
    ) {
        self.document = document
        self.revision = revision
        self.dirty = dirty
        self.baseVersion = baseVersion
        self.baseDocument = baseDocument
        self.pushedEdit = pushedEdit
    }

    /// Reads a row of the table.
    init(row: Row) throws {
        document = try RecordDocument.decode(row["document"], expectedKey: nil)
        revision = row["revision"]
        dirty = row["dirty"]
        baseVersion = row["baseVersion"]
        baseDocument = try (row["baseDocument"] as Data?).map { try RecordDocument.decode($0, expectedKey: nil) }
        pushedEdit = row["pushedEdit"]
    }

    /// Inserts the row, or replaces the record's row.
    func save(_ db: Database) throws {
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO record (type, id, document, revision, dirty, baseVersion, baseDocument, pushedEdit)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                key.type, key.id, document.encoded(), revision, dirty, baseVersion, baseDocument?.encoded(), pushedEdit,
            ]
        )
    }
}

/// A record with local changes as a push sends it: the stored document's bytes (no
/// re-encoding), its revision and the remote version it derives from.
struct DirtyRecord: Sendable {
    /// The stored document's bytes.
    var bytes: Data
    /// Counts the edits to the row.
    var revision: Int64
    /// The remote version the document derives from; `nil` for a record never synced.
    var baseVersion: VersionID?

    /// The record's document to push, or `nil` when it has no local changes (or no row).
    static func fetch(_ db: Database, _ key: RecordKey) throws -> DirtyRecord? {
        try Row.fetchOne(
            db, sql: "SELECT document, revision, baseVersion FROM record WHERE type = ? AND id = ? AND dirty",
            arguments: [key.type, key.id]
        )
        .map(DirtyRecord.init(row:))
    }

    /// Reads the columns the query selects.
    init(row: Row) {
        bytes = row["document"]
        revision = row["revision"]
        baseVersion = row["baseVersion"]
    }
}

extension Database {
    /// How many records have local changes to push.
    func dirtyRecordCount() throws -> Int {
        try Int.fetchOne(self, sql: "SELECT COUNT(*) FROM record WHERE dirty") ?? 0
    }

    /// The remote version a record was last synced at, or `nil` when it never was (or there is
    /// no such record).
    func baseVersion(of key: RecordKey) throws -> VersionID? {
        try VersionID.fetchOne(
            self, sql: "SELECT baseVersion FROM record WHERE type = ? AND id = ?", arguments: [key.type, key.id])
    }

    /// The remote version each record was last synced at, for the records synced before.
    func knownBaseVersions() throws -> [RecordKey: VersionID] {
        var result: [RecordKey: VersionID] = [:]
        for row in try Row.fetchAll(self, sql: "SELECT type, id, baseVersion FROM record WHERE baseVersion IS NOT NULL")
        {
            result[try RecordKey(row: row)] = row["baseVersion"]
        }
        return result
    }

    /// The records with local changes that are not in conflict, ordered by key.
    func dirtyKeysOutsideConflicts() throws -> [RecordKey] {
        try Row.fetchAll(
            self,
            sql: """
                SELECT type, id FROM record WHERE dirty
                AND NOT EXISTS (SELECT 1 FROM conflict c WHERE c.type = record.type AND c.id = record.id)
                ORDER BY type, id
                """
        ).map(RecordKey.init(row:))
    }

    /// Notes the edit id of every record with local changes as a push in flight, keeping an
    /// earlier note until its push is confirmed.
    func notePushedEdits() throws {
        try execute(
            sql: "UPDATE record SET pushedEdit = COALESCE(pushedEdit, json_extract(document, '$.edit')) WHERE dirty")
    }

    /// Writes down a push the remote confirmed: the new base, and clean unless the record was
    /// edited again since `revision`.
    func confirmPush(of key: RecordKey, version: VersionID, document: Data, revision: Int64) throws {
        try execute(
            sql: """
                UPDATE record SET baseVersion = ?, baseDocument = ?, pushedEdit = NULL,
                dirty = CASE WHEN revision = ? THEN 0 ELSE dirty END
                WHERE type = ? AND id = ?
                """,
            arguments: [version, document, revision, key.type, key.id]
        )
    }

    /// Marks every record to be pushed again as new: dirty, a new revision, no base.
    func markAllRecordsToPushAsNew() throws {
        try execute(
            sql:
                "UPDATE record SET dirty = 1, revision = revision + 1, baseVersion = NULL, baseDocument = NULL, pushedEdit = NULL"
        )
    }

    /// Removes every record's row.
    func deleteAllRecords() throws {
        try execute(sql: "DELETE FROM record")
    }
}

extension RecordKey {
    /// The key in a row's `type` and `id` columns.
    init(row: Row) throws {
        try self.init(type: row["type"], id: row["id"])
    }
}
