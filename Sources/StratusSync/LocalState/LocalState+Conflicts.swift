import Foundation
import GRDB
import Stratus

/// One row of the `conflict` table: the remote side of a conflict waiting for the app.
struct ConflictRow: Sendable {
    /// The record in conflict.
    var key: RecordKey
    /// The remote version of the remote side.
    var remoteVersion: VersionID
    /// The remote side.
    var remoteDocument: RecordDocument
    /// False for a write that lost a race on a best-effort service: it is in the history only.
    var remoteIsCurrent: Bool
    /// When the conflict was found.
    var detected: Date

    /// The conflict of a record, or `nil` when it has none.
    static func fetch(_ db: Database, _ key: RecordKey) throws -> ConflictRow? {
        try Row.fetchOne(db, sql: "SELECT * FROM conflict WHERE type = ? AND id = ?", arguments: [key.type, key.id])
            .map(ConflictRow.init(row:))
    }

    /// Every conflict, in the table's order.
    static func all(_ db: Database) throws -> [ConflictRow] {
        try Row.fetchAll(db, sql: "SELECT * FROM conflict").map(ConflictRow.init(row:))
    }

    /// Every conflict, ordered by record.
    static func allByKey(_ db: Database) throws -> [ConflictRow] {
        try Row.fetchAll(db, sql: "SELECT * FROM conflict ORDER BY type, id").map(ConflictRow.init(row:))
    }

    /// A conflict to save.
    init(
        key: RecordKey, remoteVersion: VersionID, remoteDocument: RecordDocument, remoteIsCurrent: Bool, detected: Date
    ) {
        self.key = key
        self.remoteVersion = remoteVersion
        self.remoteDocument = remoteDocument
        self.remoteIsCurrent = remoteIsCurrent
        self.detected = detected
    }

    /// Reads a row of the table.
    init(row: Row) throws {
        key = try RecordKey(row: row)
        remoteVersion = row["remoteVersion"]
        remoteDocument = try RecordDocument.decode(row["remoteDocument"], expectedKey: key)
        remoteIsCurrent = row["remoteIsCurrent"]
        detected = row["detected"]
    }

    /// Inserts the row, or replaces the record's conflict.
    func save(_ db: Database) throws {
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO conflict (type, id, remoteVersion, remoteDocument, remoteIsCurrent, detected)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
            arguments: [key.type, key.id, remoteVersion, remoteDocument.encoded(), remoteIsCurrent, detected]
        )
    }
}

extension Database {
    /// Whether a record has a conflict waiting for the app.
    func hasConflict(_ key: RecordKey) throws -> Bool {
        try Bool.fetchOne(self, sql: "SELECT 1 FROM conflict WHERE type = ? AND id = ?", arguments: [key.type, key.id])
            ?? false
    }

    /// The remote version of a record's conflict, or `nil` when it has none.
    func conflictRemoteVersion(of key: RecordKey) throws -> VersionID? {
        try VersionID.fetchOne(
            self, sql: "SELECT remoteVersion FROM conflict WHERE type = ? AND id = ?", arguments: [key.type, key.id])
    }

    /// The records in conflict, ordered by key.
    func conflictKeys() throws -> [RecordKey] {
        try Row.fetchAll(self, sql: "SELECT type, id FROM conflict ORDER BY type, id").map(RecordKey.init(row:))
    }

    /// Removes a record's conflict, if it has one.
    func deleteConflict(of key: RecordKey) throws {
        try execute(sql: "DELETE FROM conflict WHERE type = ? AND id = ?", arguments: [key.type, key.id])
    }

    /// Removes every conflict.
    func deleteAllConflicts() throws {
        try execute(sql: "DELETE FROM conflict")
    }
}
