import Foundation
import GRDB
import Stratus

/// Pulling: the change feed (or a full listing) names the record documents that changed; their
/// paths are saved with the feed's token in one transaction, then fetched one by one, each with
/// its files, and applied in a transaction of its own.
extension SyncStore {
    static let tokenSetting = "changeToken"

    /// Reads the change feed from the saved token into `pendingPull`; the first sync, and a
    /// token the service no longer accepts, read a full listing instead.
    func collectChanges(_ run: SyncRun) async throws {
        run.begin(.listing, total: 0)
        guard service.capabilities.changeFeed != .unavailable else {
            // No feed at all: every sync compares a full listing with what this device has.
            try await collectFullListing(run, token: nil)
            return
        }
        if var token = try await state.read({ try $0.setting(Self.tokenSetting) }).map(ChangeToken.init(rawValue:)) {
            do {
                // A change that reports the version this device already has (its own push, or
                // one it already pulled) needs nothing: it is left out before it is noted.
                let known = try await knownBaseVersions()
                while true {
                    try Task.checkCancellation()
                    let page = try await service.changes(since: token)
                    let entries = try await pendingEntries(for: page.changes).filter { entry in
                        guard let version = entry.version, let remotePath = try? RemotePath(entry.path),
                            let key = layout.key(ofDocument: remotePath)
                        else { return true }
                        return known[key] != version
                    }
                    let next = page.nextToken
                    try await state.write { db in
                        for entry in entries { try entry.save(db) }
                        try db.setSetting(Self.tokenSetting, next.rawValue)
                    }
                    token = next
                    if !page.hasMore { return }
                }
            } catch let error as ServiceError where error.code == .invalidChangeToken {
                logger.notice("The service no longer accepts the saved change token; reading a full listing instead.")
            }
        }
        try await collectFullListing(run, token: service.latestChangeToken())
    }

    /// The record documents a page of changes names, with the version each change reports
    /// (`nil` for a delete). A deleted folder names every known record below it.
    private func pendingEntries(for changes: [Change]) async throws -> [PendingPull] {
        var entries: [PendingPull] = []
        var deletedFolders: [RemotePath] = []
        for change in changes {
            switch change {
            case .upserted(let file):
                if layout.key(ofDocument: file.path) != nil {
                    entries.append(PendingPull(listed: file))
                }
            case .deleted(let path):
                if layout.key(ofDocument: path) != nil {
                    entries.append(.vanished(path.string))
                } else if path.contains(layout.records) || layout.records.contains(path) {
                    deletedFolders.append(path)
                }
            }
        }
        if !deletedFolders.isEmpty {
            for key in try await knownBaseVersions().keys {
                let path = try layout.documentPath(of: key)
                if deletedFolders.contains(where: { $0.contains(path) }) {
                    entries.append(.vanished(path.string))
                }
            }
        }
        return entries
    }

    /// The remote version each record was last synced at.
    private func knownBaseVersions() async throws -> [RecordKey: VersionID] {
        try await state.read { db in try db.knownBaseVersions() }
    }

    /// Lists every record document and marks those this device does not have at that version.
    /// - Parameter token: The feed's position taken before the listing (so a change made while
    ///   the listing runs is read again later), saved with the result; `nil` without a feed.
    private func collectFullListing(_ run: SyncRun, token: ChangeToken?) async throws {
        let files = try await ServiceError.nilIfNotFound { try await service.list(layout.records) } ?? []
        var known = try await knownBaseVersions()
        var entries: [PendingPull] = []
        for file in files {
            guard let key = layout.key(ofDocument: file.path) else {
                logger.info("Skipping \(file.path): not a record document of this format.")
                continue
            }
            if known.removeValue(forKey: key) != file.version {
                entries.append(PendingPull(listed: file))
            }
        }
        // Records synced before whose documents are gone from the remote (a folder whose store
        // marker is gone stopped the sync before this; too many stop it in checkMassDeletion).
        for key in known.keys {
            entries.append(.vanished(try layout.documentPath(of: key).string))
        }
        try await state.write { [entries] db in
            for entry in entries { try entry.save(db) }
            if let token { try db.setSetting(Self.tokenSetting, token.rawValue) }
        }
        run.update { $0.usedFullListing = true }
    }

    /// Fetches and applies every pending record document, then settles the writes that lost a
    /// race. Documents still there go first; a document that turns out to be gone (the feed, a
    /// listing or its download says so) waits, and all the vanished ones are applied together
    /// after the mass-deletion guard has counted them (``checkMassDeletion(_:)``).
    func pullPending(_ run: SyncRun) async throws {
        // A document that already failed in this run stays pending for the next sync instead
        // of being fetched again in this run's later rounds.
        let failed = run.failedPaths
        let pending = try await state.read { db in try PendingPull.all(db) }.filter { !failed.contains($0.path) }
        let present = pending.filter { !$0.isVanished }
        run.begin(.pulling, total: pending.count)
        try await forEachConcurrently(present) { [self] entry in
            try await pull(entry, run: run)
            run.finishedRecord()
        }
        let vanished = try await state.read { [self] db in
            try checkMassDeletion(db)
            return try PendingPull.all(db).filter { $0.isVanished && !failed.contains($0.path) }
        }
        try await forEachConcurrently(vanished) { [self] entry in
            try await pull(entry, run: run)
            run.finishedRecord()
        }
        try await endAcceptedDeletions()
        try await checkRaces(run)
    }

    /// Fetches one record document and its files and applies it. A document that is not valid
    /// (also one listed larger than ``RecordDocument/maximumSize``, which is not downloaded) is
    /// quarantined; a failure that may pass (the network) leaves it pending for next time. A
    /// document whose download finds nothing while the service still describes it is such a
    /// failure; one that is really gone, when the entry expected it, is noted as vanished, to
    /// be applied with the others once the guard has counted them all.
    func pull(_ entry: PendingPull, run: SyncRun) async throws {
        let (pathText, hint) = (entry.path, entry.version)
        guard let path = try? RemotePath(pathText), let key = layout.key(ofDocument: path) else {
            try await forgetPending(pathText)
            return
        }
        do {
            let base = try await state.read { db in try db.baseVersion(of: key) }
            if let hint, base == hint {
                try await forgetPending(pathText)
                return
            }
            if let size = entry.size, size > Int64(RecordDocument.maximumSize) {
                try await quarantine(key, path: pathText, version: hint, Self.documentTooLarge(size), run: run)
                return
            }
            let fetched = try await fetchDocument(path, key: key, run: run)
            var version: VersionID?
            var document: RecordDocument?
            if let fetched {
                version = fetched.version
                switch fetched.document {
                case .success(let valid):
                    try await fetchFiles(of: valid, run: run)
                    document = valid
                case .failure(let error):
                    try await quarantine(key, path: pathText, version: fetched.version, error, run: run)
                    return
                }
            } else {
                // A download that finds nothing is checked once more: a document the service
                // still describes is a failure that may pass (a 404 for a moment, a server
                // behind its own writes), not a removal, and is fetched again next time.
                if try await service.metadataIfPresent(of: path) != nil {
                    throw SyncError(
                        .service,
                        "The document of \(key) answered 404 to its download but is still there; it is fetched again by the next sync."
                    )
                }
                if !entry.isVanished {
                    try await state.write { db in try PendingPull.vanished(pathText).save(db) }
                    return
                }
            }
            reach(.documentFetched)
            let applied = try await commit { [self, version, document] db in
                reach(.localCommit)
                let applied = try applyRemote(db, key: key, version: version, document: document)
                try db.deletePendingPull(at: pathText)
                try db.deleteQuarantine(of: key)
                return (applied, applied.changes)
            }
            run.record(applied, for: key)
        } catch let error as SyncError where [.missingBlob, .blobMismatch, .invalidDocument].contains(error.code) {
            try await quarantine(key, path: pathText, version: hint, error, run: run)
        } catch {
            let failure = SyncError.wrapping(error, "Fetching \(key)")
            if failure.code == .cancelled { throw failure }
            run.fail(key, path: pathText, failure)
        }
    }

    /// Reads the history of each commit whose race is to be checked (see
    /// ``PushOutcome/committed(_:checkRace:)``) and settles every write of another device that
    /// slipped in between its base and the commit: that version is fetched and settled as a
    /// conflict by the record type's policy, whose decision is pushed, since the side the remote
    /// shows is this device's. A check whose history cannot be read stays for the next sync.
    func checkRaces(_ run: SyncRun) async throws {
        let checks = try await state.read { db in try RaceCheck.all(db) }
        for check in checks {
            guard let path = try? RemotePath(check.path), let key = layout.key(ofDocument: path) else {
                try await state.write { db in try check.delete(db) }
                continue
            }
            do {
                let lost = PushOutcome.lostWrites(
                    in: try await service.versions(of: path), written: check.written, base: check.base)
                if !lost.isEmpty {
                    logger.notice(
                        "\(lost.count) write(s) to \(key) slipped in before this device's push; settling them as conflicts."
                    )
                }
                for version in lost {
                    try await settle(lostWrite: version, of: key, at: path, run: run)
                }
                try await state.write { db in try check.delete(db) }
            } catch {
                let failure = SyncError.wrapping(error, "Checking the history of \(key) for a write that lost a race")
                if failure.code == .cancelled { throw failure }
                run.fail(key, path: check.path, failure)
            }
        }
    }

    /// Settles one write that lost a race, in the history only, against the local side.
    private func settle(lostWrite version: VersionID, of key: RecordKey, at path: RemotePath, run: SyncRun)
        async throws
    {
        let theirs: RecordDocument
        do {
            let fetched = try await fetchDocument(path, key: key, version: version, run: run)
            guard let fetched, case .success(let document) = fetched.document else {
                logger.warning(
                    "The version \(version) of \(key) that lost a race cannot be read; it stays in the history.")
                return
            }
            try await fetchFiles(of: document, run: run)
            theirs = document
        } catch let error as SyncError where [.missingBlob, .blobMismatch, .invalidDocument].contains(error.code) {
            logger.warning("The version \(version) of \(key) that lost a race is not valid: \(error)")
            return
        }
        let applied = try await commit { [self] db -> (Applied, [RecordChange]) in
            guard var row = try RecordRow.fetch(db, key), let current = row.baseVersion else {
                return (Applied(), [])
            }
            // Already merged into this side, or this side is that write.
            if row.document.edit == theirs.edit || row.document.hasSameContent(as: theirs) {
                return (Applied(), [])
            }
            row.dirty = true
            let applied = try settle(db, &row, remoteVersion: current, remote: theirs, remoteIsCurrent: false)
            return (applied, applied.changes)
        }
        run.record(applied, for: key)
    }

    private func forgetPending(_ path: String) async throws {
        try await state.write { db in try db.deletePendingPull(at: path) }
    }

    /// Keeps an invalid remote document out of the local data; the record is reported and not
    /// pushed over until a valid version arrives.
    private func quarantine(_ key: RecordKey, path: String, version: VersionID?, _ error: SyncError, run: SyncRun)
        async throws
    {
        logger.warning("Quarantined the remote document of \(key): \(error)")
        try await state.write { db in
            try QuarantineRow(
                key: key, path: path, version: version, reason: error.description, detected: Date()
            ).save(db)
            try db.deletePendingPull(at: path)
        }
        run.fail(key, path: path, error)
    }

    /// A fetched record document: its version, and the document or why it is not valid.
    struct FetchedDocument: Sendable {
        var version: VersionID
        var document: Result<RecordDocument, SyncError>
    }

    /// Downloads a record document (the current one, or a version of it).
    /// - Returns: `nil` when no document is there.
    func fetchDocument(_ path: RemotePath, key: RecordKey, version: VersionID? = nil, run: SyncRun?) async throws
        -> FetchedDocument?
    {
        let staged = blobs.stagingFile()
        defer { try? FileManager.default.removeItem(at: staged) }
        let file: RemoteFile
        do {
            // Stopped as soon as more than the largest accepted document has arrived.
            file = try await BoundedDownload.run(limit: Int64(RecordDocument.maximumSize)) { [service] options in
                try await service.download(path, version: version, to: staged, options: options)
            }
        } catch let error as ServiceError where error.code == .notFound {
            return nil
        } catch let error as BoundedDownload.Exceeded {
            throw Self.documentTooLarge(error.received)
        }
        run?.moved(bytes: file.size)
        guard file.size <= RecordDocument.maximumSize else {
            return FetchedDocument(version: file.version, document: .failure(Self.documentTooLarge(file.size)))
        }
        let data: Data
        do {
            data = try Data(contentsOf: staged)
        } catch {
            throw SyncError(.localFile, "Cannot read the downloaded document of \(key): \(error)")
        }
        do {
            return FetchedDocument(
                version: file.version, document: .success(try RecordDocument.decode(data, expectedKey: key)))
        } catch let error as SyncError {
            return FetchedDocument(version: file.version, document: .failure(error))
        }
    }

    /// The error for a record document larger than any this library accepts.
    private static func documentTooLarge(_ size: Int64) -> SyncError {
        SyncError(
            .invalidDocument,
            "The record document is at least \(size) bytes; at most \(RecordDocument.maximumSize) are accepted, so it was not (or no further) downloaded."
        )
    }

    /// Makes sure every file a document names is on this device, checked against its hash.
    func fetchFiles(of document: RecordDocument, run: SyncRun?) async throws {
        var seen = Set<String>()
        for entry in document.files.values where seen.insert(entry.sha256).inserted && !blobs.contains(entry.sha256) {
            let staged = blobs.stagingFile()
            defer { try? FileManager.default.removeItem(at: staged) }
            let checkpoint = configuration.checkpoint
            let options = DownloadOptions(progress: { progress in
                if progress.completedBytes > 0, let total = progress.totalBytes, progress.completedBytes < total {
                    checkpoint?(.blobDownloading)
                }
            })
            do {
                _ = try await service.download(
                    layout.blobPath(of: entry.sha256), version: nil, to: staged, options: options)
            } catch let error as ServiceError where error.code == .notFound {
                throw SyncError(
                    .missingBlob,
                    "The record \(document.key) names the file blob \(entry.sha256), which is not on the remote.",
                    underlying: error)
            }
            try blobs.adoptDownload(staged, as: entry)
            run?.moved(bytes: entry.size)
        }
    }
}
