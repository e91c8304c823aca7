import GRDB
import Stratus

/// One row of the `pendingPull` table: a record document the change feed named that this
/// device has not fetched yet.
struct PendingPull: Sendable {
    /// The document's remote path.
    var path: String
    /// The version the feed reported; `nil` for a document that is gone.
    var version: VersionID?
    /// The size the feed or the listing reported, so an oversized document is refused before
    /// it is downloaded; `nil` when none was reported.
    var size: Int64?

    /// Every pending document, ordered by path.
    static func all(_ db: Database) throws -> [PendingPull] {
        try Row.fetchAll(db, sql: "SELECT path, version, size FROM pendingPull ORDER BY path").map(
            PendingPull.init(row:))
    }

    /// An entry to save.
    init(path: String, version: VersionID?, size: Int64? = nil) {
        self.path = path
        self.version = version
        self.size = size
    }

    /// The entry for a document the feed or a listing reported.
    init(listed file: RemoteFile) {
        self.init(path: file.path.string, version: file.version, size: file.size)
    }

    /// Reads a row of the table.
    init(row: Row) {
        path = row["path"]
        version = row["version"]
        size = row["size"]
    }

    /// Inserts the row, or replaces the entry for its path.
    func save(_ db: Database) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO pendingPull (path, version, size) VALUES (?, ?, ?)",
            arguments: [path, version, size])
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
