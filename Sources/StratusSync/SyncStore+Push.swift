import Foundation
import GRDB
import Stratus
import StratusDigest
import Synchronization

/// Pushing: a record's files go up first, as blobs named by their hash (a blob already there is
/// not sent again); then its document, conditional on the version this device last saw. That
/// document is the commit. A refused precondition means another device wrote first: its side
/// is fetched and the conflict settled, never overwritten.
extension SyncStore {
    /// The records with local changes that a push would send now (`ready`: not in conflict or
    /// quarantine, and not failed already in this run), and those held by a quarantine.
    func pushableKeys(_ run: SyncRun) async throws -> (ready: [RecordKey], quarantined: [RecordKey]) {
        let failed = Set(run.report.failures.map(\.key))
        return try await state.read { db in
            let keys = try db.dirtyKeysOutsideConflicts().filter { !failed.contains($0) }
            let quarantined = try db.quarantinedKeySet()
            return (keys.filter { !quarantined.contains($0) }, keys.filter { quarantined.contains($0) })
        }
    }

    /// Pushes every record with local changes that is not in conflict or quarantine and has not
    /// failed in this run already.
    func pushDirty(_ run: SyncRun) async throws {
        let (ready, quarantined) = try await pushableKeys(run)
        for key in quarantined {
            let path = (try? layout.documentPath(of: key).string) ?? key.description
            run.fail(
                key, path: path,
                SyncError(
                    .quarantined,
                    "The remote document of \(key) is quarantined; this device's change waits until a valid version arrives."
                ))
        }
        guard !ready.isEmpty else { return }
        run.begin(.pushing, total: ready.count)
        // Every edit about to go up is noted first, in one transaction, so that a document
        // committed whose answer is lost is recognised as this device's own. An earlier note
        // stays until its push is confirmed.
        try await state.write { db in try db.notePushedEdits() }
        let commits = PushCommits()
        do {
            try await forEachConcurrently(ready) { [self] key in
                do {
                    try await push(key, run: run, commits: commits)
                } catch {
                    let failure = SyncError.wrapping(error, "Pushing \(key)")
                    if failure.code == .cancelled { throw failure }
                    run.fail(key, path: (try? layout.documentPath(of: key).string) ?? key.description, failure)
                }
                run.finishedRecord()
            }
        } catch {
            try? await record(commits.drain())
            throw error
        }
        try await record(commits.drain())
    }

    /// Writes down pushes the remote confirmed: the new base, and clean where the app did not
    /// edit the record meanwhile. Batched, since a crash before this is recognised anyway.
    private func record(_ confirmed: [PushCommits.Confirmed]) async throws {
        guard !confirmed.isEmpty else { return }
        try await state.write { db in
            for commit in confirmed {
                try db.confirmPush(
                    of: commit.key, version: commit.version, document: commit.document, revision: commit.revision)
            }
        }
    }

    /// Pushes one record. A refused precondition settles the conflict through the pull path;
    /// a side that then needs pushing goes in the sync's next round.
    private func push(_ key: RecordKey, run: SyncRun, commits: PushCommits) async throws {
        // The stored document's bytes are what goes up (and become the base): no re-encoding.
        let pending = try await state.read { db in try DirtyRecord.fetch(db, key) }
        guard let pending else { return }
        let bytes = pending.bytes
        let document = try RecordDocument.decode(bytes, expectedKey: key)
        let path = try layout.documentPath(of: key)
        try await uploadFiles(of: document, run: run)
        reach(.blobsUploaded)
        let precondition: WritePrecondition = pending.baseVersion.map { .mustMatch($0) } ?? .mustNotExist
        let written: RemoteFile
        do {
            written = try await service.upload(
                from: .bytes(bytes), to: path, options: UploadOptions(precondition: precondition))
        } catch let error as ServiceError where error.code == .conflict {
            // Another device wrote first: take its side through the pull path, which settles
            // the conflict by the record type's policy.
            logger.debug("The push of \(key) was refused by its precondition; settling with the remote side.")
            try await pull(PendingPull(path: path.string, version: nil), run: run)
            return
        }
        reach(.documentCommitted)
        run.moved(bytes: Int64(bytes.count))
        if service.capabilities.conditionalWrites != .atomic, pending.baseVersion == nil,
            try await service.metadata(of: path).version != written.version
        {
            // A create that lost a race on a best-effort service: another device created the
            // same record at the same time, and its file is the one readers see (Drive keeps
            // both and shows the older). Settle with that side, as a refused push would.
            logger.notice("The first write of \(key) lost a race with another device's; settling with its side.")
            try await pull(PendingPull(path: path.string, version: nil), run: run)
            return
        }
        let confirmed = PushCommits.Confirmed(
            key: key, version: written.version, document: bytes, revision: pending.revision)
        run.update { $0.pushed.append(key) }
        if service.capabilities.conditionalWrites != .atomic, service.capabilities.supportsVersions {
            try await record([confirmed])
            try await detectLostRace(
                key, path: path, written: written.version, base: pending.baseVersion, ours: document, run: run)
        } else if let batch = commits.add(confirmed) {
            try await record(batch)
        }
    }

    /// How long a blob confirmed on the remote is trusted without asking again.
    static let blobTrust: TimeInterval = 3600

    /// Uploads the blobs a document names that the remote is not known to have. A blob known
    /// from over an hour ago is looked up first (cheaper than sending it again).
    private func uploadFiles(of document: RecordDocument, run: SyncRun) async throws {
        var entries: [String: RecordDocument.FileEntry] = [:]
        for entry in document.files.values { entries[entry.sha256] = entry }
        guard !entries.isEmpty else { return }
        let hashes = Array(entries.keys)
        let confirmed = try await state.read { db in
            var result: [String: Date] = [:]
            for row in try RemoteBlobRow.all(db, hashes: hashes) {
                result[row.hash] = row.confirmed
            }
            return result
        }
        let trusted = Date().addingTimeInterval(-Self.blobTrust)
        for (hash, entry) in entries.sorted(by: { $0.key < $1.key }) {
            if let when = confirmed[hash], when > trusted { continue }
            let path = try layout.blobPath(of: hash)
            if confirmed[hash] != nil, try await blobIsThere(path, entry) {
                try await confirm(hash)
                continue
            }
            let source = blobs.url(of: hash)
            guard FileManager.default.fileExists(atPath: source.path) else {
                throw SyncError(
                    .localFile,
                    "The file \(hash) of \(document.key) is missing from the store folder \(blobs.folder.path).")
            }
            do {
                _ = try await service.upload(
                    from: .file(source), to: path, options: UploadOptions(precondition: .mustNotExist))
                run.moved(bytes: entry.size)
            } catch let error as ServiceError where error.code == .conflict {
                // A blob with this name is there: it must hold this content, since anyone who
                // can write the folder could have put anything under a predictable name.
                try await settleExistingBlob(at: path, entry, source: source)
            }
            try await confirm(hash)
        }
    }

    /// Checks that the blob already at `path` holds the content it is named by (by the hash the
    /// service reports when this device can compute it over its own copy, otherwise by
    /// downloading it), and replaces it with this device's copy when it does not, keeping the
    /// wrong content in the history. The record document that names it is written only after.
    /// - Throws: ``SyncError`` (`blobMismatch`) when the wrong content cannot be replaced.
    private func settleExistingBlob(at path: RemotePath, _ entry: RecordDocument.FileEntry, source: URL) async throws {
        let existing = try await service.metadata(of: path)
        if try await blob(existing, holds: entry, source: source) { return }
        logger.warning("The remote blob \(entry.sha256) does not hold the content it is named by; replacing it.")
        do {
            _ = try await service.upload(
                from: .file(source), to: path, options: UploadOptions(precondition: .mustMatch(existing.version)))
        } catch {
            throw SyncError(
                .blobMismatch,
                "The remote blob \(entry.sha256) holds other content and could not be replaced: \(error)",
                underlying: SendableDescription(error))
        }
    }

    /// Whether a remote blob holds `entry`'s content.
    private func blob(_ remote: RemoteFile, holds entry: RecordDocument.FileEntry, source: URL) async throws -> Bool {
        guard remote.size == entry.size else { return false }
        if let reported = remote.contentHash, reported.algorithm.isComputable {
            let digest = try reported.algorithm.makeDigest()
            do {
                _ = try Digest.feed(fileAt: source, into: [digest])
            } catch {
                throw SyncError(.localFile, "Cannot read the blob \(source.path): \(error)")
            }
            return Hex.encode(digest.finalize()) == reported.value
        }
        let staged = blobs.stagingFile()
        defer { try? FileManager.default.removeItem(at: staged) }
        _ = try await service.download(remote.path, version: remote.version, to: staged)
        let digest = SHA256Digest()
        do {
            _ = try Digest.feed(fileAt: staged, into: [digest])
        } catch {
            throw SyncError(.localFile, "Cannot read the downloaded blob \(staged.path): \(error)")
        }
        return digest.finalizeHex() == entry.sha256
    }

    private func blobIsThere(_ path: RemotePath, _ entry: RecordDocument.FileEntry) async throws -> Bool {
        try await service.metadataIfPresent(of: path)?.size == entry.size
    }

    private func confirm(_ hash: String) async throws {
        try await state.write { db in try RemoteBlobRow(hash: hash, confirmed: Date()).save(db) }
    }

    /// On a service whose preconditions are checked just before the write (Drive), another
    /// writer can slip in between the check and the write. Its version is then in the history
    /// between the base and ours: fetch it and settle it as a conflict, so it is not lost.
    /// A first write (no base) that finds an older version below it lost a race to another
    /// device's first write in the same way.
    private func detectLostRace(
        _ key: RecordKey, path: RemotePath, written: VersionID, base: VersionID?, ours: RecordDocument, run: SyncRun
    ) async throws {
        let history: [FileVersion]
        do {
            history = try await service.versions(of: path)
        } catch {
            logger.warning("Could not read the history of \(key) to check for a lost race: \(error)")
            return
        }
        guard let index = history.firstIndex(where: { $0.id == written }) else { return }
        let older = history[(index + 1)...]
        guard let lost = older.first else { return }
        if let base {
            guard let baseIndex = older.firstIndex(where: { $0.id == base }), baseIndex > older.startIndex
            else { return }
        }
        logger.notice(
            "A write to \(key) slipped in before this device's push (version \(lost.id)); settling it as a conflict.")
        guard let fetched = try await fetchDocument(path, key: key, version: lost.id, run: run),
            case .success(let theirs) = fetched.document
        else { return }
        try await fetchFiles(of: theirs, run: run)
        let applied = try await state.write { [self] db in
            guard var row = try RecordRow.fetch(db, key) else { return Applied() }
            row.dirty = true
            return try settle(db, &row, remoteVersion: written, remote: theirs, remoteIsCurrent: false)
        }
        run.record(applied, for: key)
        broadcaster.send(applied.changes)
    }
}

/// Pushes the remote confirmed and the local state does not know yet, written down in batches.
final class PushCommits: Sendable {
    struct Confirmed: Sendable {
        var key: RecordKey
        var version: VersionID
        var document: Data
        var revision: Int64
    }

    /// How many confirmed pushes are written in one transaction.
    static let batchSize = 64

    private let pending = Mutex<[Confirmed]>([])

    /// Adds a confirmed push; returns a full batch to write, taking it out.
    func add(_ confirmed: Confirmed) -> [Confirmed]? {
        pending.withLock { pending in
            pending.append(confirmed)
            guard pending.count >= Self.batchSize else { return nil }
            defer { pending.removeAll() }
            return pending
        }
    }

    /// Takes out everything not written yet.
    func drain() -> [Confirmed] {
        pending.withLock { pending in
            defer { pending.removeAll() }
            return pending
        }
    }
}
