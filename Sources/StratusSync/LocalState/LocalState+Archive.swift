import Foundation
import GRDB

/// One row of the `archive` table: a local side replaced in a conflict or by a restore, kept
/// until the app discards it.
struct ArchiveRow: Sendable {
    /// The row's number, counting up; `nil` before the row is saved.
    var number: Int64?
    /// The local side that was replaced.
    var document: RecordDocument
    /// Why the side was replaced.
    var reason: String
    /// When it was archived.
    var archived: Date

    /// The record the side belongs to.
    var key: RecordKey { document.key }

    /// A new entry, numbered when it is saved.
    init(document: RecordDocument, reason: String, archived: Date) {
        self.number = nil
        self.document = document
        self.reason = reason
        self.archived = archived
    }

    /// Reads a row of the table.
    init(row: Row) throws {
        number = row["number"]
        document = try RecordDocument.decode(row["document"], expectedKey: try RecordKey(row: row))
        reason = row["reason"]
        archived = row["archived"]
    }

    /// Inserts the row, numbered after every earlier one.
    func save(_ db: Database) throws {
        try db.execute(
            sql: "INSERT INTO archive (type, id, document, reason, archived) VALUES (?, ?, ?, ?, ?)",
            arguments: [key.type, key.id, document.encoded(), reason, archived]
        )
    }
}

extension Database {
    /// Puts a replaced local side in the archive, now.
    func archive(_ document: RecordDocument, reason: String) throws {
        try ArchiveRow(document: document, reason: reason, archived: Date()).save(self)
    }

    /// Every archived side, newest first.
    func archiveRows() throws -> [ArchiveRow] {
        try Row.fetchAll(
            self, sql: "SELECT number, type, id, document, reason, archived FROM archive ORDER BY number DESC"
        )
        .map(ArchiveRow.init(row:))
    }

    /// A record's archived sides, newest first.
    func archivedDocuments(of key: RecordKey) throws -> [RecordDocument] {
        try Data.fetchAll(
            self, sql: "SELECT document FROM archive WHERE type = ? AND id = ? ORDER BY number DESC",
            arguments: [key.type, key.id]
        )
        .map { try RecordDocument.decode($0, expectedKey: key) }
    }

    /// Removes a record's archived sides.
    /// - Returns: How many were removed.
    func discardArchive(of key: RecordKey) throws -> Int {
        try execute(sql: "DELETE FROM archive WHERE type = ? AND id = ?", arguments: [key.type, key.id])
        return changesCount
    }
}
