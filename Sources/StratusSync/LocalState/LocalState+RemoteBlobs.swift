import Foundation
import GRDB

/// One row of the `remoteBlob` table: a blob known to be on the remote, and when that was last
/// confirmed.
struct RemoteBlobRow: Sendable {
    /// The blob's SHA-256, its name on the remote.
    var hash: String
    /// When the remote last confirmed it.
    var confirmed: Date

    /// The rows of those of `hashes` known to be on the remote.
    static func all(_ db: Database, hashes: [String]) throws -> [RemoteBlobRow] {
        let marks = hashes.map { _ in "?" }.joined(separator: ",")
        return try Row.fetchAll(
            db, sql: "SELECT hash, confirmed FROM remoteBlob WHERE hash IN (\(marks))",
            arguments: StatementArguments(hashes)
        )
        .map(RemoteBlobRow.init(row:))
    }

    /// A row to save.
    init(hash: String, confirmed: Date) {
        self.hash = hash
        self.confirmed = confirmed
    }

    /// Reads a row of the table.
    init(row: Row) {
        hash = row["hash"]
        confirmed = row["confirmed"]
    }

    /// Inserts the row, or replaces the blob's row.
    func save(_ db: Database) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO remoteBlob (hash, confirmed) VALUES (?, ?)", arguments: [hash, confirmed])
    }
}

extension Database {
    /// Forgets that a blob is on the remote.
    func deleteRemoteBlob(_ hash: String) throws {
        try execute(sql: "DELETE FROM remoteBlob WHERE hash = ?", arguments: [hash])
    }

    /// Forgets every blob known to be on the remote.
    func deleteAllRemoteBlobs() throws {
        try execute(sql: "DELETE FROM remoteBlob")
    }
}
