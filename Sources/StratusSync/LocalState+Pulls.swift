import GRDB

/// One row of the `pendingPull` table: a record document the change feed named that this
/// device has not fetched yet.
struct PendingPull: Sendable {
    /// The document's remote path.
    var path: String
    /// The version the feed reported; `nil` for a document that is gone.
    var version: String?

    /// Every pending document, ordered by path.
    static func all(_ db: Database) throws -> [PendingPull] {
        try Row.fetchAll(db, sql: "SELECT path, version FROM pendingPull ORDER BY path").map(PendingPull.init(row:))
    }

    /// An entry to save.
    init(path: String, version: String?) {
        self.path = path
        self.version = version
    }

    /// Reads a row of the table.
    init(row: Row) {
        path = row["path"]
        version = row["version"]
    }

    /// Inserts the row, or replaces the entry for its path.
    func save(_ db: Database) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO pendingPull (path, version) VALUES (?, ?)", arguments: [path, version])
    }
}

extension Database {
    /// The paths of the pending documents that are gone from the remote.
    func vanishedPendingPaths() throws -> [String] {
        try String.fetchAll(self, sql: "SELECT path FROM pendingPull WHERE version IS NULL")
    }

    /// Removes the pending entry for a path, if there is one.
    func deletePendingPull(at path: String) throws {
        try execute(sql: "DELETE FROM pendingPull WHERE path = ?", arguments: [path])
    }

    /// Removes every pending entry.
    func deleteAllPendingPulls() throws {
        try execute(sql: "DELETE FROM pendingPull")
    }
}
