import Foundation
import GRDB
import Stratus

/// One row of the `quarantine` table: a remote document that was not valid, by record.
struct QuarantineRow: Sendable {
    /// The record whose remote document is quarantined.
    var key: RecordKey
    /// The document's remote path.
    var path: String
    /// The version that was not valid; `nil` when it is not known.
    var version: VersionID?
    /// Why the document is not valid.
    var reason: String
    /// When it was quarantined.
    var detected: Date

    /// An entry to save.
    init(key: RecordKey, path: String, version: VersionID?, reason: String, detected: Date) {
        self.key = key
        self.path = path
        self.version = version
        self.reason = reason
        self.detected = detected
    }

    /// Reads a row of the table.
    init(row: Row) throws {
        key = try RecordKey(row: row)
        path = row["path"]
        version = row["version"]
        reason = row["reason"]
        detected = row["detected"]
    }

    /// Inserts the row, or replaces the record's entry.
    func save(_ db: Database) throws {
        try db.execute(
            sql:
                "INSERT OR REPLACE INTO quarantine (type, id, path, version, reason, detected) VALUES (?, ?, ?, ?, ?, ?)",
            arguments: [key.type, key.id, path, version, reason, detected]
        )
    }
}

extension Database {
    /// The quarantined records, ordered by key.
    func quarantinedKeys() throws -> [RecordKey] {
        try Row.fetchAll(self, sql: "SELECT type, id FROM quarantine ORDER BY type, id").map(RecordKey.init(row:))
    }

    /// The quarantined records, as a set.
    func quarantinedKeySet() throws -> Set<RecordKey> {
        try Set(Row.fetchAll(self, sql: "SELECT type, id FROM quarantine").map(RecordKey.init(row:)))
    }

    /// Ends a record's quarantine, if it has one.
    func deleteQuarantine(of key: RecordKey) throws {
        try execute(sql: "DELETE FROM quarantine WHERE type = ? AND id = ?", arguments: [key.type, key.id])
    }

    /// Ends every quarantine.
    func deleteAllQuarantine() throws {
        try execute(sql: "DELETE FROM quarantine")
    }
}
