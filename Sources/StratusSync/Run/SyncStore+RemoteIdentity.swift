import Foundation
import GRDB
import Stratus

/// Remote identity: the store marker (`FOLDER/store.json`) says which store a remote folder
/// holds. A device remembers the store id it synced with; a folder that lost its marker (it was
/// deleted or emptied) or holds another store's (the service points at another account or
/// folder) stops the sync before anything is read or applied, and the app chooses a way out:
/// ``SyncStore/reseedRemote()`` or ``SyncStore/adoptRemote()``.
extension SyncStore {
    /// The setting that holds the id of the store this device syncs with.
    static let remoteStoreSetting = "remoteStore"
    /// The setting that holds the marker file's identity and version as last read, so an
    /// unchanged marker costs one metadata request.
    static let remoteMarkerSetting = "remoteMarker"

    /// Checks that the remote folder is the one this store synced with before (its marker),
    /// before anything is read or applied; the first sync writes the marker.
    /// - Throws: ``SyncError``: `remoteReplaced` when the marker is gone or names another store,
    ///   `unsupportedFormat` for a folder of a newer format, `invalidDocument` for a marker
    ///   that cannot be read, `service` when the remote cannot be reached.
    func checkRemoteIdentity(_ run: SyncRun) async throws {
        let (remembered, seen) = try await state.read { db in
            (try db.setting(Self.remoteStoreSetting), try db.setting(Self.remoteMarkerSetting))
        }
        // Two rounds: a first write that loses a race with another device's reads theirs.
        for _ in 0..<2 {
            try Task.checkCancellation()
            let file = try await markerMetadata()
            if let file, remembered != nil, seen == Self.fingerprint(of: file) { return }
            var read: (RemoteMarker, RemoteFile)?
            if file != nil {
                // `nil`: gone since the metadata request; look again.
                guard let marker = try await readMarker() else { continue }
                read = marker
            }
            switch SafetyRailDecisions.identity(remembered: remembered, found: read?.0.store) {
            case .proceed:
                if let (marker, file) = read { try await remember(marker.store, file) }
                return
            case .adopt(let store):
                logger.debug("This device now syncs with the store \(store) in \(layout.folder).")
                if let (marker, file) = read { try await remember(marker.store, file) }
                return
            case .writeMarker:
                let marker = RemoteMarker.new()
                if let written = try await writeMarker(marker, over: nil) {
                    try await remember(marker.store, written)
                    return
                }
            case .stop(let remembered, let found):
                throw remoteReplaced(remembered: remembered, found: found)
            }
        }
        throw SyncError(
            .service,
            "The store marker \(layout.marker) changed while it was read, twice; another device is setting up the remote folder. Sync again."
        )
    }

    /// Seeds the remote again from this device: the way out of ``SyncError/Code/remoteReplaced``
    /// (or of ``SyncError/Code/massDeletion``) that keeps this device's records.
    ///
    /// When the remote folder has no store marker (it was deleted or emptied), a new one is
    /// written, with a new store id; other devices then stop with `remoteReplaced` and choose
    /// for themselves (``adoptRemote()`` takes this device's data). When the folder holds
    /// another store's marker, this device joins that store. Either way every local record is
    /// marked to be pushed again as new, on the condition that its document does not exist: a
    /// document that is there already is never overwritten; it is settled with the local side
    /// by the record type's policy (a conflict with ``ConflictPolicy/manual``), and a document
    /// that says the same thing is simply taken as this device's. Open conflicts end: their
    /// remote side, which was on the old remote, goes to the archive (``archived(_:)``). The
    /// change token is forgotten, so the next ``sync()`` reads a full listing; call it next.
    /// - Throws: ``SyncError``: `unsupportedFormat` when the folder holds a newer format's
    ///   marker (nothing is changed), `service` when the remote cannot be reached, `database`.
    public func reseedRemote() async throws {
        try await scheduler.exclusive { [self] in
            do {
                try await reseedNow()
                wayOutTaken.send([()])
            } catch {
                throw SyncError.wrapping(error, "Seeding the remote again", otherwise: .database)
            }
        }
    }

    /// Adopts the remote as it is: the way out of ``SyncError/Code/remoteReplaced`` that takes
    /// the remote's data.
    ///
    /// Every record on this device goes to the archive (``archived(_:)``, kept until the app
    /// calls ``discardArchive(of:)``), the remote sides of open conflicts too, and the local
    /// sync state is cleared: records,
    /// conflicts, quarantine, pending pulls, the change token and the blobs known to be on the
    /// remote. The store id in the remote folder's marker is remembered (a folder without one
    /// gets a new marker at the next sync). The next ``sync()`` pulls everything the remote
    /// holds; call it next. Changes not pushed yet are in the archive too: save them again to
    /// keep them.
    /// - Throws: ``SyncError``: `unsupportedFormat` when the folder holds a newer format's
    ///   marker (nothing is changed), `invalidDocument` for a marker that cannot be read,
    ///   `service` when the remote cannot be reached, `database`.
    public func adoptRemote() async throws {
        try await scheduler.exclusive { [self] in
            do {
                try await adoptNow()
                wayOutTaken.send([()])
            } catch {
                throw SyncError.wrapping(error, "Adopting the remote", otherwise: .database)
            }
        }
    }

    private func reseedNow() async throws {
        var joined: (RemoteMarker, RemoteFile)?
        for _ in 0..<2 {
            if try await markerMetadata() == nil {
                let marker = RemoteMarker.new()
                if let written = try await writeMarker(marker, over: nil) {
                    joined = (marker, written)
                    break
                }
                continue
            }
            guard let (data, file) = try await downloadMarker() else { continue }
            do {
                joined = (try decodeMarker(data), file)
                break
            } catch let error as SyncError where error.code == .invalidDocument {
                // A marker that cannot be read is replaced, on the condition that it is still
                // the one that was read.
                let marker = RemoteMarker.new()
                if let written = try await writeMarker(marker, over: file.version) {
                    joined = (marker, written)
                    break
                }
            }
        }
        guard let (marker, file) = joined else {
            throw SyncError(
                .service, "The store marker \(layout.marker) kept changing while this device seeded the remote again.")
        }
        let fingerprint = Self.fingerprint(of: file)
        try await state.write { db in
            try Self.archiveConflictRemoteSides(
                db, reason: "The remote side of a conflict, kept when this device seeded the remote again.")
            try db.deleteAllConflicts()
            try db.deleteAllQuarantine()
            try db.deleteAllPendingPulls()
            try db.deleteAllRemoteBlobs()
            try db.markAllRecordsToPushAsNew()
            try db.setSetting(Self.tokenSetting, nil)
            try db.setSetting(Self.acceptDeletionsSetting, nil)
            try db.setSetting(Self.remoteStoreSetting, marker.store)
            try db.setSetting(Self.remoteMarkerSetting, fingerprint)
        }
        logger.notice(
            "Seeded the remote again from this device (store \(marker.store)); the next sync pushes every record.")
    }

    private func adoptNow() async throws {
        let found: (RemoteMarker, RemoteFile)?
        if try await markerMetadata() == nil {
            found = nil
        } else {
            found = try await readMarker()
        }
        let changes = try await commit { db -> ([RecordChange], [RecordChange]) in
            try Self.archiveConflictRemoteSides(
                db, reason: "The remote side of a conflict, kept when this device adopted the remote.")
            var changes: [RecordChange] = []
            for row in try RecordRow.all(db) where !row.document.isDeleted {
                try db.archive(row.document, reason: "Archived when this device adopted the remote as it is.")
                changes.append(RecordChange(key: row.key, kind: .archived, origin: .remote))
            }
            try db.deleteAllRecords()
            try db.deleteAllConflicts()
            try db.deleteAllQuarantine()
            try db.deleteAllPendingPulls()
            try db.deleteAllRemoteBlobs()
            try db.setSetting(Self.tokenSetting, nil)
            try db.setSetting(Self.acceptDeletionsSetting, nil)
            try db.setSetting(Self.remoteStoreSetting, found?.0.store)
            try db.setSetting(Self.remoteMarkerSetting, found.map { Self.fingerprint(of: $0.1) })
            return (changes, changes)
        }
        logger.notice(
            "Adopted the remote as it is (store \(found?.0.store ?? "not set up yet")); \(changes.count) records went to the archive."
        )
    }

    /// Puts the remote side of every open conflict in the archive.
    private static func archiveConflictRemoteSides(_ db: Database, reason: String) throws {
        for conflict in try ConflictRow.all(db) {
            try db.archive(conflict.remoteDocument, reason: reason)
        }
    }

    // MARK: The marker on the remote

    /// The marker file's description, or `nil` when there is none.
    private func markerMetadata() async throws -> RemoteFile? {
        try await service.metadataIfPresent(of: layout.marker)
    }

    /// Downloads and reads the marker; `nil` when it disappeared meanwhile.
    private func readMarker() async throws -> (RemoteMarker, RemoteFile)? {
        guard let (data, file) = try await downloadMarker() else { return nil }
        return (try decodeMarker(data), file)
    }

    /// Downloads the marker's bytes (`nil` bytes for a marker too large to read); `nil` when
    /// it disappeared meanwhile.
    private func downloadMarker() async throws -> (Data?, RemoteFile)? {
        let staged = blobs.stagingFile()
        defer { try? FileManager.default.removeItem(at: staged) }
        let file: RemoteFile
        do {
            let (service, marker) = (service, layout.marker)
            file = try await BoundedDownload.run(limit: Int64(RemoteMarker.maximumSize)) { options in
                try await service.download(marker, version: nil, to: staged, options: options)
            }
        } catch let error as ServiceError where error.code == .notFound {
            return nil
        } catch is BoundedDownload.Exceeded {
            // Stopped early: what is there is described without reading it again.
            return (nil, try await service.metadata(of: layout.marker))
        }
        guard file.size <= RemoteMarker.maximumSize else { return (nil, file) }
        do {
            return (try Data(contentsOf: staged), file)
        } catch {
            throw SyncError(.localFile, "Cannot read the downloaded store marker: \(error)")
        }
    }

    private func decodeMarker(_ data: Data?) throws -> RemoteMarker {
        do {
            guard let data else {
                throw SyncError(
                    .invalidDocument,
                    "The store marker \(layout.marker) is larger than \(RemoteMarker.maximumSize) bytes.")
            }
            return try RemoteMarker.decode(data, path: layout.marker.string)
        } catch let error as SyncError where error.code == .invalidDocument {
            throw SyncError(
                .invalidDocument,
                "\(error.message) Seed the remote again from a device that has the data (reseedRemote()) to replace it."
            )
        }
    }

    /// Writes a marker, on the condition that none exists (or that the one there is still at
    /// `version`).
    /// - Returns: The marker file written, or `nil` when another device wrote one first.
    private func writeMarker(_ marker: RemoteMarker, over version: VersionID?) async throws -> RemoteFile? {
        let written: RemoteFile
        do {
            written = try await service.upload(
                from: .bytes(marker.encoded()), to: layout.marker,
                options: UploadOptions(precondition: version.map { .mustMatch($0) } ?? .mustNotExist))
        } catch let error as ServiceError where error.code == .conflict {
            return nil
        }
        // On a service whose preconditions are checked just before the write, another first
        // write may have slipped in; the path names the marker every reader sees.
        if service.capabilities.conditionalWrites != .atomic,
            let current = try await markerMetadata(), current.version != written.version
        {
            return nil
        }
        logger.debug("Wrote the store marker \(layout.marker) (store \(marker.store)).")
        return written
    }

    private func remember(_ store: String, _ file: RemoteFile) async throws {
        let fingerprint = Self.fingerprint(of: file)
        try await state.write { db in
            try db.setSetting(Self.remoteStoreSetting, store)
            try db.setSetting(Self.remoteMarkerSetting, fingerprint)
        }
    }

    /// What identifies one version of the marker file: the provider's file id (a folder
    /// replaced by another has new files even where version numbers start again) and version.
    static func fingerprint(of file: RemoteFile) -> String {
        "\(file.id)\n\(file.version.rawValue)"
    }

    private func remoteReplaced(remembered: String, found: String?) -> SyncError {
        let what =
            found.map { "holds another store (\($0)) in its marker \(layout.marker)" }
            ?? "has no store marker (\(layout.marker)) any more"
        return SyncError(
            .remoteReplaced,
            "The remote folder \(layout.folder) is not the store this device synced with (\(remembered)): it \(what). The folder may have been deleted or emptied, or the service now points at another account or folder. Nothing was changed. Either seed the remote again from this device (reseedRemote(): its records are pushed again, documents already there become conflicts, never overwritten), or adopt the remote as it is (adoptRemote(): this device's records go to the archive and the next sync pulls the remote's)."
        )
    }
}
