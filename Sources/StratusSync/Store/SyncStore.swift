public import Foundation
import GRDB
import Logging
public import Stratus

/// An app's synced data on this device: records (a type, an id, a `Codable` value) and each
/// record's files, kept in a local folder and synced through any ``/Stratus/Service``.
///
/// ```swift
/// let store = try SyncStore(folder: appSupport.appending(path: "sync"), service: service,
///                           configuration: SyncConfiguration(policies: ["save": .newest]))
/// let slot = try RecordKey(type: "save", id: "slot-1")
/// try store.save(progress, as: slot, files: ["state": stateFile, "thumbnail": pngFile])
/// let report = try await store.sync()            // pull, push, settle conflicts
/// let mine = try store.record(slot)?.decode(GameProgress.self)
/// ```
///
/// Reads and writes are local and never wait for the network; ``sync()`` exchanges changes with
/// the remote. A record and its files travel as one unit: files go up first as immutable blobs
/// named by their SHA-256, and the record document that lists them is written last, conditional
/// on the version this device last saw, so no device sees a record without its files and a
/// concurrent writer becomes a conflict instead of an overwrite. See <doc:SyncingAnAppsData>.
///
/// The local state is SQLite (`state.sqlite` in the folder), changed in transactions; a process
/// killed at any point loses nothing, and the next ``sync()`` converges. One store per folder:
/// do not open the same folder twice at once.
public final class SyncStore: Sendable {
    /// The service the store syncs through.
    public let service: any Service
    /// The local folder that holds the store.
    public let folder: URL
    /// This device's name in the record documents it writes.
    public let deviceName: String

    let configuration: SyncConfiguration
    let state: LocalState
    let blobs: LocalBlobStore
    let layout: RemoteLayout
    let changeJournal: ChangeJournal
    /// Told of every local edit that a sync should push (writes, resolutions, restores).
    let localEdits = Broadcaster<Void>(buffer: 1)
    /// Told when a sync run ends, however it ended.
    let runsEnded = Broadcaster<Void>(buffer: 1)
    /// Told when the app took a way out of an error that stops every sync (``reseedRemote()``,
    /// ``adoptRemote()``, ``acceptRemoteDeletions()``), so automatic sync resumes.
    let wayOutTaken = Broadcaster<Void>(buffer: 1)
    let scheduler = SyncScheduler()
    let statusBoard = StatusBoard(.idle(lastSynced: nil))
    var logger: Logger { configuration.logger }

    /// Opens a store, creating its folder and state when missing.
    /// - Parameters:
    ///   - folder: The local folder for the store's state and files.
    ///   - service: The service to sync through.
    ///   - configuration: The remote folder, conflict policies and limits.
    /// - Throws: ``SyncError`` (`localFile` or `database`) when the folder or its state cannot
    ///   be set up; `invalidKey` for a remote folder that is not a valid path.
    public init(folder: URL, service: any Service, configuration: SyncConfiguration = SyncConfiguration()) throws {
        self.folder = folder
        self.service = service
        self.configuration = configuration
        do {
            try PrivateFiles.makeFolder(folder)
        } catch {
            throw SyncError(
                .localFile, "The store folder \(folder.path) cannot be created: \(error)",
                underlying: SendableDescription(error))
        }
        do {
            layout = try RemoteLayout(folder: RemotePath(configuration.remoteFolder))
        } catch {
            throw SyncError(
                .invalidKey,
                "The remote folder \(configuration.remoteFolder.debugDescription) is not a valid path: \(error)")
        }
        state = try LocalState(file: folder.appending(path: "state.sqlite"))
        changeJournal = ChangeJournal(state: state)
        blobs = try LocalBlobStore(root: folder)
        if let name = configuration.deviceName {
            deviceName = name
        } else {
            deviceName = try state.write { db in
                if let existing = try db.setting("device") { return existing }
                let made = "device-" + UUID().uuidString.lowercased()
                try db.setSetting("device", made)
                return made
            }
        }
    }

    // MARK: Reading

    /// The record with a key, or `nil` when there is none (or it was deleted).
    /// - Throws: ``SyncError`` (`database`) when the local state cannot be read.
    public func record(_ key: RecordKey) throws -> SyncRecord? {
        guard let row = try state.read({ try RecordRow.fetch($0, key) }), !row.document.isDeleted else { return nil }
        return makeRecord(row.document)
    }

    /// Every record of a type that is not deleted, ordered by id.
    /// - Throws: ``SyncError`` (`database`) when the local state cannot be read.
    public func records(ofType type: String) throws -> [SyncRecord] {
        let rows = try state.read { db in try RecordRow.all(db, ofType: type) }
        return rows.filter { !$0.document.isDeleted }.map { makeRecord($0.document) }
    }

    /// How many records have local changes that the next ``sync()`` will push.
    /// - Throws: ``SyncError`` (`database`) when the local state cannot be read.
    public func pendingChangeCount() throws -> Int {
        try state.read { try $0.dirtyRecordCount() }
    }

    /// The changes to records in this store, local and remote, as their transactions commit.
    /// Each call makes a new sequence of what commits from then on; it ends when the store is
    /// closed. A slow reader misses nothing: the changes wait in the store's state until every
    /// open sequence has read them (so drop a sequence you no longer read).
    public func changes() -> AsyncStream<RecordChange> {
        changeJournal.stream()
    }

    /// Ends every ``changes()`` and ``statusUpdates()`` sequence. The store can still be used;
    /// new sequences work.
    public func close() {
        changeJournal.finish()
        statusBoard.finish()
    }

    /// Where syncing stands now.
    public var status: SyncStatus { statusBoard.status }

    /// The store's ``SyncStatus`` as it changes, starting with the current one. Each call makes
    /// a new sequence; it ends when the store is closed.
    public func statusUpdates() -> AsyncStream<SyncStatus> {
        statusBoard.updates()
    }

    // MARK: Writing

    /// Writes a record on this device; the next ``sync()`` pushes it.
    /// - Parameters:
    ///   - value: The record's value, any `Encodable` (stored as JSON).
    ///   - key: The record.
    ///   - files: The record's files by name, each copied into the store (so the app may change
    ///     or remove its own copy afterwards); `nil` keeps the files the record has.
    /// - Returns: The record as stored.
    /// - Throws: ``SyncError``: `invalidValue` for a value that is not JSON, `invalidKey` for a
    ///   bad file name, `localFile` when a file cannot be read, `database`.
    @discardableResult
    public func save<Value: Encodable>(_ value: Value, as key: RecordKey, files: [String: URL]? = nil) throws
        -> SyncRecord
    {
        var batch = SyncBatch()
        try batch.save(value, as: key, files: files)
        return try write(batch)[0]
    }

    /// Deletes a record on this device; the next ``sync()`` pushes the delete. The record's
    /// versions stay restorable (``versions(of:)``).
    /// - Throws: ``SyncError`` (`notFound`) when there is no such record, `database`.
    public func delete(_ key: RecordKey) throws {
        var batch = SyncBatch()
        batch.delete(key)
        try write(batch)
    }

    /// Writes several records at once, in one local transaction: all of them or none (a game's
    /// progress and its inventory, say). Files are copied into the store first.
    ///
    /// ```swift
    /// var batch = SyncBatch()
    /// try batch.save(progress, as: progressKey)
    /// try batch.save(inventory, as: inventoryKey)
    /// try store.write(batch)
    /// ```
    /// - Returns: The records as stored, in the batch's order (a deleted record as a tombstone,
    ///   ``SyncRecord/isDeleted`` set).
    /// - Throws: ``SyncError``: `notFound` when the batch deletes a record that does not exist
    ///   (nothing is written), `invalidKey` for a bad file name, `localFile`, `database`.
    @discardableResult
    public func write(_ batch: SyncBatch) throws -> [SyncRecord] {
        var prepared: [(RecordKey, JSONValue?, [String: RecordDocument.FileEntry]?)] = []
        for operation in batch.operations {
            prepared.append((operation.key, operation.value, try operation.files.map(importFiles)))
        }
        let device = deviceName
        let documents = try commitLocalEditNow { [prepared] db in
            let documents = try prepared.map { key, value, entries in
                let existing = try RecordRow.fetch(db, key)
                let previous = existing?.document
                let document: RecordDocument
                if let value {
                    document = RecordDocument(
                        key: key, edit: RecordDocument.newEdit(), device: device, modified: Date(), isDeleted: false,
                        value: value,
                        files: entries ?? (previous?.isDeleted == false ? previous?.files ?? [:] : [:]),
                        unknownFields: previous?.unknownFields ?? [:]
                    )
                } else {
                    guard let previous, !previous.isDeleted else {
                        throw SyncError(.notFound, "There is no record \(key) to delete.")
                    }
                    document = RecordDocument(
                        key: key, edit: RecordDocument.newEdit(), device: device, modified: Date(), isDeleted: true,
                        value: .null, files: [:], unknownFields: previous.unknownFields
                    )
                }
                try Self.writeLocal(db, document, over: existing)
                return document
            }
            return (
                documents,
                documents.map { RecordChange(key: $0.key, kind: $0.isDeleted ? .deleted : .updated, origin: .local) }
            )
        }
        return documents.map(makeRecord)
    }

    /// Stores a local edit: the record becomes dirty, its revision counts up, its base stays.
    /// The side an edit replaces while a conflict is open goes to the archive first, so a user
    /// who edits before resolving loses neither side.
    static func writeLocal(_ db: Database, _ document: RecordDocument, over existing: RecordRow?) throws {
        if let existing, try db.hasConflict(existing.key) {
            try db.archive(existing.document, reason: "Replaced by a local edit while a conflict was open.")
        }
        var row =
            existing ?? RecordRow(document: document, revision: 0, dirty: true, baseVersion: nil, baseDocument: nil)
        row.document = document
        row.revision += 1
        row.dirty = true
        try row.save(db)
    }

    func importFiles(_ files: [String: URL]) throws -> [String: RecordDocument.FileEntry] {
        var entries: [String: RecordDocument.FileEntry] = [:]
        for (name, url) in files {
            guard FileName.isValid(name) else {
                throw SyncError(
                    .invalidKey,
                    "The file name \(name.debugDescription) is not valid: use 1 to 200 bytes without control characters."
                )
            }
            entries[name] = try blobs.importFile(at: url)
        }
        return entries
    }

    // MARK: Conflicts and the archive

    /// The conflicts waiting for the app, ordered by record.
    /// - Throws: ``SyncError`` (`database`) when the local state cannot be read.
    public func conflicts() throws -> [SyncConflict] {
        let rows = try state.read { db in
            try ConflictRow.allByKey(db).map { conflict -> (RecordRow?, RecordDocument) in
                (try RecordRow.fetch(db, conflict.key), conflict.remoteDocument)
            }
        }
        return rows.compactMap { local, remote in
            guard let local else { return nil }
            return SyncConflict(
                key: local.key,
                local: makeRecord(local.document),
                remote: makeRecord(remote),
                base: local.baseDocument.map(makeRecord)
            )
        }
    }

    /// Settles a conflict. The choice is pushed by the next ``sync()``.
    /// - Parameters:
    ///   - key: The record in conflict.
    ///   - resolution: Which side wins, or a merged value.
    /// - Throws: ``SyncError`` (`notFound`) when the record has no conflict; `localFile` when a
    ///   merged file cannot be read; `database`.
    public func resolve(_ key: RecordKey, with resolution: ConflictResolution) throws {
        let decision: MergeDecision
        switch resolution {
        case .keepLocal: decision = .keepLocal
        case .keepRemote: decision = .keepRemote
        case .merged(let value, let files):
            let syncFiles: [String: SyncFile]
            if let files {
                syncFiles = try importFiles(files).mapValues(makeFile)
            } else {
                syncFiles = try state.read { try RecordRow.fetch($0, key) }.map { makeRecord($0.document).files } ?? [:]
            }
            decision = .merged(value, files: syncFiles)
        }
        try resolve(key, decision: decision)
    }

    private func resolve(_ key: RecordKey, decision: MergeDecision) throws {
        try commitLocalEditNow { [self] db in
            guard let conflict = try ConflictRow.fetch(db, key), var row = try RecordRow.fetch(db, key) else {
                throw SyncError(.notFound, "The record \(key) has no conflict to resolve.")
            }
            if case .keepLocal = decision { row.dirty = true }
            let changes = try apply(
                decision, db, &row, remoteVersion: conflict.remoteVersion, remote: conflict.remoteDocument,
                remoteIsCurrent: conflict.remoteIsCurrent
            ).changes
            return ((), changes)
        }
    }

    /// The local sides this device replaced in conflicts (and by restores), newest first, so
    /// nothing a user wrote is lost even when a policy chose the other side.
    /// - Throws: ``SyncError`` (`database`) when the local state cannot be read.
    public func archived(_ key: RecordKey) throws -> [SyncRecord] {
        let documents = try state.read { db in try db.archivedDocuments(of: key) }
        return documents.map(makeRecord)
    }

    /// Everything in the archive, newest first: each side with when and why it went there, and
    /// its files (still in the store). The way to find what a way out (``adoptRemote()``,
    /// ``acceptRemoteDeletions()``) or a conflict put aside without knowing the keys.
    /// - Throws: ``SyncError`` (`database`) when the local state cannot be read, `invalidDocument`
    ///   when an archived side cannot be read.
    public func archivedRecords() throws -> [ArchivedRecord] {
        let rows = try state.read { db in try db.archiveRows() }
        return rows.map { row in
            ArchivedRecord(record: makeRecord(row.document), archived: row.archived, reason: row.reason)
        }
    }

    /// Removes the archived local sides of a record, once the app (or its user) no longer needs
    /// them.
    /// - Returns: How many archived sides were removed.
    /// - Throws: ``SyncError`` (`database`) when the local state cannot be written.
    @discardableResult
    public func discardArchive(of key: RecordKey) throws -> Int {
        try state.write { db in try db.discardArchive(of: key) }
    }

    // MARK: Mapping

    func makeRecord(_ document: RecordDocument) -> SyncRecord {
        SyncRecord(
            key: document.key,
            value: document.value,
            modified: document.modified,
            device: document.device,
            isDeleted: document.isDeleted,
            files: document.files.mapValues(makeFile)
        )
    }

    func makeFile(_ entry: RecordDocument.FileEntry) -> SyncFile {
        SyncFile(sha256: entry.sha256, size: entry.size, url: blobs.url(of: entry.sha256))
    }
}
