import Foundation
import GRDB
import Stratus
import StratusDigest
import Synchronization

/// Pushing: a record's files go up first, as blobs named by their hash (a blob already there is
/// not sent again); then its document, conditional on the version this device last saw. That
/// document is the commit. Each push returns a ``PushOutcome``: a refused precondition (another
/// device wrote first) and a write that lost a race become entries for the next pull round,
/// written in the same transaction as the confirmed commits, and are settled there, never
/// overwritten.
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
    /// failed in this run already, and writes down what came of each.
    /// - Returns: Whether anything was committed or left for a pull round.
    func pushDirty(_ run: SyncRun) async throws -> Bool {
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
        guard !ready.isEmpty else { return false }
        run.begin(.pushing, total: ready.count)
        // Every edit about to go up is noted first, in one transaction, so that a document
        // committed whose answer is lost is recognised as this device's own. An earlier note
        // stays until its push is confirmed.
        try await state.write { db in try db.notePushedEdits() }
        let ledger = PushLedger()
        do {
            try await forEachConcurrently(ready) { [self] key in
                let outcome: PushOutcome
                do {
                    outcome = try await push(key, run: run)
                } catch {
                    let failure = SyncError.wrapping(error, "Pushing \(key)")
                    if failure.code == .cancelled { throw failure }
                    run.fail(key, path: (try? layout.documentPath(of: key).string) ?? key.description, failure)
                    run.finishedRecord()
                    return
                }
                if let batch = ledger.add(outcome) { try await writeDown(batch, run: run) }
                run.finishedRecord()
            }
        } catch {
            try? await writeDown(ledger.drain(), run: run)
            throw error
        }
        try await writeDown(ledger.drain(), run: run)
        return ledger.movedAnything
    }

    /// Writes down push outcomes in one transaction: a commit becomes the new base (clean where
    /// the app did not edit the record meanwhile), a refusal a pending pull of the remote's side,
    /// a lost write an entry to settle. A crash before this loses nothing: a commit is
    /// recognised by its edit id, a refusal happens again.
    private func writeDown(_ outcomes: [PushOutcome], run: SyncRun) async throws {
        guard !outcomes.isEmpty else { return }
        try await state.write { db in
            for outcome in outcomes {
                switch outcome {
                case .nothing:
                    break
                case .committed(let commit, let checkRace):
                    try db.confirmPush(
                        of: commit.key, version: commit.version, document: commit.document, revision: commit.revision)
                    if checkRace {
                        try RaceCheck(path: commit.path, written: commit.version, base: commit.base).save(db)
                    }
                case .refused(let path):
                    try PendingPull.afterRefusal(path).save(db)
                }
            }
        }
        for case .committed(let commit, _) in outcomes {
            run.update { $0.pushed.append(commit.key) }
        }
    }

    /// Pushes one record: its files, then its document, conditional on its base.
    private func push(_ key: RecordKey, run: SyncRun) async throws -> PushOutcome {
        // The stored document's bytes are what goes up (and become the base): no re-encoding.
        let pending = try await state.read { db in try DirtyRecord.fetch(db, key) }
        guard let pending else { return .nothing }
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
            logger.debug("The push of \(key) was refused by its precondition; the remote's side is pulled next.")
            return .refused(path: path.string)
        }
        reach(.documentCommitted)
        run.moved(bytes: Int64(bytes.count))
        let commit = PushOutcome.Commit(
            key: key, path: path.string, version: written.version, base: pending.baseVersion, document: bytes,
            revision: pending.revision)
        guard service.capabilities.conditionalWrites != .atomic else { return .committed(commit, checkRace: false) }
        if pending.baseVersion == nil, try await service.metadata(of: path).version != written.version {
            // A create that lost a race on a best-effort service: another device created the
            // same record at the same time, and its file is the one readers see (Drive keeps
            // both and shows the older). Settled with that side, as a refused push is.
            logger.notice("The first write of \(key) lost a race with another device's; its side is pulled next.")
            return .refused(path: path.string)
        }
        return .committed(commit, checkRace: service.capabilities.supportsVersions)
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
}

/// Push outcomes not written down yet, handed out in batches.
final class PushLedger: Sendable {
    /// How many outcomes are written in one transaction.
    static let batchSize = 64

    private struct Book {
        var pending: [PushOutcome] = []
        var movedAnything = false
    }

    private let book = Mutex(Book())

    /// Adds an outcome; returns a batch to write down now (a full one, or one with an outcome
    /// that must be written at once), taking it out.
    func add(_ outcome: PushOutcome) -> [PushOutcome]? {
        book.withLock { book in
            book.pending.append(outcome)
            if case .committed = outcome { book.movedAnything = true }
            if outcome.needsPull { book.movedAnything = true }
            guard book.pending.count >= Self.batchSize || outcome.mustBeWrittenAtOnce else { return nil }
            defer { book.pending.removeAll() }
            return book.pending
        }
    }

    /// Takes out everything not written down yet.
    func drain() -> [PushOutcome] {
        book.withLock { book in
            defer { book.pending.removeAll() }
            return book.pending
        }
    }

    /// Whether any push committed or left work for a pull round.
    var movedAnything: Bool { book.withLock { $0.movedAnything } }
}
