import Foundation
import GRDB

/// The store's state on this device, in one SQLite database (`state.sqlite`), changed only in
/// transactions: a process killed at any point leaves it as it was before the transaction or
/// after it.
///
/// The database is in WAL mode. The app's own writes (``writeDurably(_:)``) are flushed to the
/// disk before they return (`synchronous = FULL`), so a power cut loses none of them. The
/// sync's bookkeeping is not flushed on each commit (`synchronous = NORMAL`: safe against a
/// killed process, and after a power cut consistent but possibly a few commits behind, which the
/// next sync redoes: a lost token re-reads the feed, a lost push bookkeeping is recognised by
/// the document's edit id).
///
/// Tables (created by named migrations):
/// - `record`: each record's current local document, whether it has changes to push
///   (`dirty`, with a `revision` that counts local edits), the remote version it derives from
///   (`baseVersion`, `baseDocument`: the last version both sides agreed on) and the edit id of a
///   push in flight (`pushedEdit`), so a commit whose answer was lost is recognised.
/// - `conflict`: the remote side of each conflict waiting for the app (`remoteIsCurrent` is
///   false for a write that lost a race on a best-effort service: it is in the history only).
/// - `pendingPull`: remote record documents (path, version, listed size) the change feed named
///   and this device has not fetched yet, so the feed's token can be saved before the fetches
///   finish; and those a refused push queued (`refused`: whatever the remote holds now).
/// - `raceCheck`: this device's commits on a best-effort service (one that checks a
///   precondition just before the write), written with the commit, whose history the next
///   pull round reads for writes of other devices that slipped in between, to settle them as
///   conflicts.
/// - `quarantine`: remote documents that were not valid, by record.
/// - `archive`: local sides replaced in conflicts and by restores, kept until the app discards
///   them (``SyncStore/discardArchive(of:)``).
/// - `remoteBlob`: blobs known to be on the remote and when that was last confirmed, so
///   unchanged files are not sent again (an entry older than an hour is checked again, since
///   another device's compaction may have removed the blob).
/// - `setting`: the change token and this device's id.
/// - `recordChange`: the changes to records each committed transaction made, in order, until
///   every open ``SyncStore/changes()`` sequence has read them (see `ChangeJournal`).
///
/// Each table's row type and statements are in a file of their own (`LocalState+Records.swift`,
/// `LocalState+Conflicts.swift`, ...); the sync engine holds no SQL.
struct LocalState: Sendable {
    let queue: DatabaseQueue

    init(file: URL) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        configuration.label = "StratusSync"
        configuration.journalMode = .wal
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        do {
            // SQLite gives the -wal and -shm files the database file's mode: made private here
            // (and an older store's tightened), they all are.
            try PrivateFiles.makeFile(file)
            queue = try DatabaseQueue(path: file.path, configuration: configuration)
            try Self.migrator.migrate(queue)
        } catch {
            throw SyncError(
                .database, "The sync state at \(file.path) cannot be opened: \(error)",
                underlying: SendableDescription(error))
        }
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: records, conflicts, pulls, quarantine, archive, blobs") { db in
            try db.execute(
                sql: """
                    CREATE TABLE record (
                        type TEXT NOT NULL, id TEXT NOT NULL,
                        document BLOB NOT NULL, revision INTEGER NOT NULL, dirty INTEGER NOT NULL,
                        baseVersion TEXT, baseDocument BLOB, pushedEdit TEXT,
                        PRIMARY KEY (type, id));
                    CREATE INDEX recordDirty ON record(dirty) WHERE dirty;
                    CREATE TABLE conflict (
                        type TEXT NOT NULL, id TEXT NOT NULL,
                        remoteVersion TEXT NOT NULL, remoteDocument BLOB NOT NULL, remoteIsCurrent INTEGER NOT NULL,
                        detected DATETIME NOT NULL,
                        PRIMARY KEY (type, id));
                    CREATE TABLE pendingPull (path TEXT PRIMARY KEY, version TEXT);
                    CREATE TABLE quarantine (
                        type TEXT NOT NULL, id TEXT NOT NULL, path TEXT NOT NULL,
                        version TEXT, reason TEXT NOT NULL, detected DATETIME NOT NULL,
                        PRIMARY KEY (type, id));
                    CREATE TABLE archive (
                        number INTEGER PRIMARY KEY AUTOINCREMENT,
                        type TEXT NOT NULL, id TEXT NOT NULL, document BLOB NOT NULL,
                        reason TEXT NOT NULL, archived DATETIME NOT NULL);
                    CREATE INDEX archiveRecord ON archive(type, id);
                    CREATE TABLE remoteBlob (hash TEXT PRIMARY KEY, confirmed DATETIME NOT NULL);
                    CREATE TABLE setting (name TEXT PRIMARY KEY, value TEXT NOT NULL);
                    """)
        }
        migrator.registerMigration("v2: the size the feed reported for a pending document") { db in
            try db.execute(sql: "ALTER TABLE pendingPull ADD COLUMN size INTEGER")
        }
        migrator.registerMigration("v3: pulls a refused push queued, and commits whose race is checked") { db in
            try db.execute(
                sql: """
                    ALTER TABLE pendingPull ADD COLUMN refused INTEGER NOT NULL DEFAULT 0;
                    CREATE TABLE raceCheck (
                        path TEXT NOT NULL, written TEXT NOT NULL, base TEXT, PRIMARY KEY (path, written));
                    """)
        }
        migrator.registerMigration("v4: the journal of record changes") { db in
            try db.execute(
                sql: """
                    CREATE TABLE recordChange (
                        sequence INTEGER PRIMARY KEY AUTOINCREMENT,
                        type TEXT NOT NULL, id TEXT NOT NULL, kind TEXT NOT NULL, origin TEXT NOT NULL);
                    """)
        }
        return migrator
    }

    /// Runs a read transaction, mapping GRDB's errors to ``SyncError``.
    func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) throws -> T {
        do { return try queue.read(body) } catch {
            throw SyncError.wrapping(error, "Reading the sync state", otherwise: .database)
        }
    }

    /// Runs a write transaction, mapping GRDB's errors to ``SyncError``.
    func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) throws -> T {
        do { return try queue.write(body) } catch {
            throw SyncError.wrapping(error, "Writing the sync state", otherwise: .database)
        }
    }

    /// Runs a write transaction that is on the disk when it returns, for the app's own writes.
    func writeDurably<T: Sendable>(_ body: @Sendable (Database) throws -> T) throws -> T {
        do {
            return try queue.writeWithoutTransaction { db in try Self.durably(db, body) }
        } catch {
            throw SyncError.wrapping(error, "Writing the sync state", otherwise: .database)
        }
    }

    /// The async form of ``read(_:)``: the read runs on the database's own queue while the
    /// calling task is suspended, so the cooperative thread pool is never blocked.
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do { return try await queue.read(body) } catch {
            throw SyncError.wrapping(error, "Reading the sync state", otherwise: .database)
        }
    }

    /// Runs `body` in a transaction flushed to the disk at its commit (`synchronous = FULL`).
    private static func durably<T>(_ db: Database, _ body: (Database) throws -> T) throws -> T {
        try db.execute(sql: "PRAGMA synchronous = FULL")
        defer { try? db.execute(sql: "PRAGMA synchronous = NORMAL") }
        var result: T?
        try db.inTransaction {
            result = try body(db)
            return .commit
        }
        guard let result else { throw SyncError(.database, "The transaction produced no result.") }
        return result
    }

    /// The async form of ``writeDurably(_:)``, off the caller's thread.
    func writeDurably<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await queue.writeWithoutTransaction { db in try Self.durably(db, body) }
        } catch {
            throw SyncError.wrapping(error, "Writing the sync state", otherwise: .database)
        }
    }

    /// The async form of ``write(_:)``, off the caller's thread.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do { return try await queue.write(body) } catch {
            throw SyncError.wrapping(error, "Writing the sync state", otherwise: .database)
        }
    }
}

extension Database {
    /// Every record document this device holds, across tables: each record's current document
    /// and its base, the remote sides of conflicts and the archive (undecoded).
    func everyStoredDocument() throws -> [Data] {
        try Data.fetchAll(
            self,
            sql:
                "SELECT document FROM record UNION ALL SELECT baseDocument FROM record WHERE baseDocument IS NOT NULL UNION ALL SELECT remoteDocument FROM conflict UNION ALL SELECT document FROM archive"
        )
    }
}
