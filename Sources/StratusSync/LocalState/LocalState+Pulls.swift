import GRDB
import Stratus

/// One row of the `pendingPull` table: a record document this device has to fetch, because the
/// change feed or a listing named it, or because a push of it was refused.
struct PendingPull: Sendable, Equatable {
    /// The document's remote path.
    var path: String
    /// The version the feed reported; `nil` for a document that is gone, or, for an entry a
    /// refused push queued, one whose version is not known.
    var version: VersionID?
    /// The size the feed or the listing reported, so an oversized document is refused before
    /// it is downloaded; `nil` when none was reported.
    var size: Int64?
    /// Whether a refused push queued the entry: whatever the remote holds now is fetched, and
    /// the entry says nothing about the document being gone.
    var refused: Bool

    /// Every pending document, ordered by path.
    static func all(_ db: Database) throws -> [PendingPull] {
        try Row.fetchAll(db, sql: "SELECT path, version, size, refused FROM pendingPull ORDER BY path").map(
            PendingPull.init(row:))
    }

    /// An entry to save.
    init(path: String, version: VersionID?, size: Int64? = nil, refused: Bool = false) {
        self.path = path
        self.version = version
        self.size = size
        self.refused = refused
    }

    /// The entry for a document the feed or a listing reported.
    init(listed file: RemoteFile) {
        self.init(path: file.path.string, version: file.version, size: file.size)
    }

    /// The entry for a document the feed, a listing or a download found gone.
    static func vanished(_ path: String) -> PendingPull {
        PendingPull(path: path, version: nil)
    }

    /// The entry a refused push queues: the remote's side, whatever it is now.
    static func afterRefusal(_ path: String) -> PendingPull {
        PendingPull(path: path, version: nil, refused: true)
    }

    /// Whether the entry says the document is gone from the remote.
    var isVanished: Bool { version == nil && !refused }

    /// Reads a row of the table.
    init(row: Row) {
        path = row["path"]
        version = row["version"]
        size = row["size"]
        refused = row["refused"]
    }

    /// Inserts the row, or replaces the entry for its path.
    func save(_ db: Database) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO pendingPull (path, version, size, refused) VALUES (?, ?, ?, ?)",
            arguments: [path, version, size, refused])
    }
}

/// One row of the `raceCheck` table: a commit of this device on a service whose preconditions
/// are best-effort, written with the commit. The next pull round reads the document's history
/// for writes that slipped in between the base and this commit (``PushOutcome/lostWrites(in:written:base:)``)
/// and settles each as a conflict; the row stays until that is done.
struct RaceCheck: Sendable, Equatable {
    /// The document's remote path.
    var path: String
    /// The version this device's commit made.
    var written: VersionID
    /// The version the commit was conditional on; `nil` for a first write.
    var base: VersionID?

    /// Every check, ordered by path.
    static func all(_ db: Database) throws -> [RaceCheck] {
        try Row.fetchAll(db, sql: "SELECT path, written, base FROM raceCheck ORDER BY path, written").map { row in
            RaceCheck(path: row["path"], written: row["written"], base: row["base"])
        }
    }

    /// Inserts the row (once).
    func save(_ db: Database) throws {
        try db.execute(
            sql: "INSERT OR IGNORE INTO raceCheck (path, written, base) VALUES (?, ?, ?)",
            arguments: [path, written, base])
    }

    /// Removes the row.
    func delete(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM raceCheck WHERE path = ? AND written = ?", arguments: [path, written])
    }
}

extension Database {
    /// The paths of the pending documents that are gone from the remote.
    func vanishedPendingPaths() throws -> [String] {
        try String.fetchAll(self, sql: "SELECT path FROM pendingPull WHERE version IS NULL AND NOT refused")
    }

    /// Removes the pending entry for a path, if there is one.
    func deletePendingPull(at path: String) throws {
        try execute(sql: "DELETE FROM pendingPull WHERE path = ?", arguments: [path])
    }

    /// Removes every pending entry and every race check.
    func deleteAllPendingPulls() throws {
        try execute(sql: "DELETE FROM pendingPull; DELETE FROM raceCheck")
    }
}
