import Foundation
public import Stratus
import StratusAdapterKit
import StratusDigest
import StratusHTTP

/// The emulated change feed.
///
/// WebDAV servers keep no change log, so the feed is put together from two sources:
/// - the adapter's own journal (`.stratus/journal/`): each write and delete of this adapter adds
///   one small entry, named by the writer's clock, so the feed reports them in the order they
///   were made, including files that were written and deleted between two reads;
/// - a walk of the tree (PROPFIND depth 1 per folder) compared with the snapshot the token
///   stands for, which catches what the journal misses (other programs, a journal entry written
///   late by a writer with a slow clock). Where folder ETags change with anything below them
///   (Nextcloud, ownCloud), folders whose ETag is unchanged are not read again.
///
/// A token is `webdav1.<remote digest>.<snapshot digest>`: the snapshot itself is stored in
/// `.stratus/feed/`, so tokens stay short and any instance can use them.
extension WebDAVService {
    /// A token for the current state. See ``/Stratus/Service/latestChangeToken()``.
    public func latestChangeToken() async throws -> ChangeToken {
        try await guarded {
            await pruneFeedOnce()
            // With the journal pruned empty, the pruning mark is the point the token starts from.
            var journal = try await journalNames().last
            if journal == nil { journal = try await prunedJournalHorizon() }
            // A root collection that was never made is an empty remote.
            let tree = try await walk(.root) ?? Tree()
            return try await store(
                WebDAVFeedSnapshot(
                    journal: journal ?? "", files: snapshotFiles(tree.files), folders: Self.feedFolders(tree.folders)))
        }
    }

    /// The changes after a token, oldest first. See ``/Stratus/Service/changes(since:)``.
    ///
    /// Changes from the journal come first, in the order they were made; then what the walk found
    /// beyond them, writes by time and then deletions.
    public func changes(since token: ChangeToken) async throws -> ChangePage {
        try await guarded {
            await pruneFeedOnce()
            let snapshot = try await load(token)
            let journal = try await journalNames()
            // Pruning deletes the oldest entries first: while the token's own entry is listed,
            // none after it was pruned, and the pruning mark need not be read (an idle poll).
            if snapshot.journal.isEmpty || !journal.contains(snapshot.journal),
                let horizon = try await prunedJournalHorizon(), snapshot.journal < horizon
            {
                throw ServiceError(
                    .invalidChangeToken,
                    "The change token is older than the change journal the WebDAV remote keeps (entries up to \(horizon) were pruned); list the files again and take a new token."
                )
            }
            let pageSize = configuration.changePageSize
            var state = snapshot.files
            var pending: [(change: Change, journal: String?)] = []
            let names = journal.filter { $0 > snapshot.journal }
            var lastRead = snapshot.journal
            for name in names {
                if pending.count > pageSize { break }
                lastRead = name
                guard let change = try await readJournal(name)?.change else { continue }
                switch change {
                case .upserted(let file):
                    if state[file.path.string]?.version != file.version.rawValue {
                        pending.append((change, name))
                        state[file.path.string] = Self.fileState(file)
                    }
                case .deleted(let path):
                    pending.append((change, name))
                    state[path.string] = nil
                }
            }
            let journalDone = names.last.map { lastRead == $0 } ?? true
            var tree: Tree?
            if pending.count <= pageSize, journalDone {
                let walked =
                    try await walk(.root, reuse: configuration.propagatesFolderETags ? Self.reuse(snapshot) : nil)
                    ?? Tree()
                tree = walked
                var upserts: [RemoteFile] = []
                for (path, described) in walked.files {
                    if state[path.string]?.version != described.version.rawValue { upserts.append(described) }
                }
                upserts.sort { ($0.modified, $0.path.string) < ($1.modified, $1.path.string) }
                let deletions = state.keys.filter { key in
                    guard let path = try? RemotePath(key) else { return false }
                    return walked.files[path] == nil
                }.sorted()
                pending += upserts.map { (Change.upserted($0), nil) }
                pending += deletions.compactMap { key in (try? RemotePath(key)).map { (Change.deleted($0), nil) } }
            }
            let page = Array(pending.prefix(pageSize))
            let hasMore = pending.count > pageSize || !journalDone
            var next: WebDAVFeedSnapshot
            if !hasMore, let tree {
                next = WebDAVFeedSnapshot(
                    journal: lastRead, files: snapshotFiles(tree.files), folders: Self.feedFolders(tree.folders))
            } else {
                next = WebDAVFeedSnapshot(journal: snapshot.journal, files: snapshot.files, folders: snapshot.folders)
                for (change, journal) in page {
                    if let journal { next.journal = journal }
                    switch change {
                    case .upserted(let file): next.files[file.path.string] = Self.fileState(file)
                    case .deleted(let path): next.files[path.string] = nil
                    }
                }
                if page.contains(where: { $0.journal == nil }) { next.journal = lastRead }
            }
            return ChangePage(changes: page.map(\.change), nextToken: try await store(next), hasMore: hasMore)
        }
    }

    // MARK: Journal

    /// Adds a change to the journal. A failure is logged, not thrown: the write itself is done,
    /// and the next walk of the feed finds it.
    func appendJournal(_ change: Change) async {
        let stamp = lastJournalStamp.withLock { last in
            last = max(last + 1, Int64(Date().timeIntervalSince1970 * 1000) * 1000)
            return last
        }
        var generator = SystemRandomNumberGenerator()
        let name = String(format: "%019lld-%08x", stamp, UInt32.random(in: 0...UInt32.max, using: &generator))
        do {
            try await ensureReservedFolder("journal")
            let body = try JSONEncoder().encode(WebDAVJournalEntry(change))
            _ = try await transport.send(
                transport.request(
                    .put, try transport.url(for: [Self.reservedFolder, "journal", name]), body: .bytes(body)),
                action: "PUT of a journal entry", repetition: .safe
            )
        } catch {
            logger.warning(
                "A change could not be added to the journal; the change feed finds it by listing",
                metadata: ["error": "\(error)"])
        }
    }

    /// The journal's entry names, oldest first. Only the names are asked for: every poll lists
    /// the whole journal, and the live and dead properties of each entry cost the most of it.
    func journalNames() async throws -> [String] {
        let url = try transport.url(for: [Self.reservedFolder, "journal"], isFolder: true)
        guard
            let entries = try await transport.propfind(
                url, depth: 1, properties: WebDAVProperties.propfindNamesBody, action: "PROPFIND of the change journal")
        else {
            return []
        }
        return entries.filter { !$0.isCollection }.compactMap { entry in
            let name = entry.href.split(separator: "/").last.map(String.init) ?? ""
            return name.count == 28 ? name : nil
        }.sorted()
    }

    private func readJournal(_ name: String) async throws -> WebDAVJournalEntry? {
        let url = try transport.url(for: [Self.reservedFolder, "journal", name])
        do {
            let response = try await transport.send(
                transport.request(.get, url), action: "GET of a journal entry", repetition: .safe,
                destination: .memory(limit: 64 * 1024))
            return try? JSONDecoder().decode(WebDAVJournalEntry.self, from: response.body)
        } catch let error as ServiceError where error.code == .notFound {
            return nil
        }
    }

    // MARK: Snapshots

    private func snapshotFiles(_ files: [RemotePath: RemoteFile]) -> [String: WebDAVFeedSnapshot.FileState] {
        var result: [String: WebDAVFeedSnapshot.FileState] = [:]
        for (path, file) in files { result[path.string] = Self.fileState(file) }
        return result
    }

    static func fileState(_ file: RemoteFile) -> WebDAVFeedSnapshot.FileState {
        WebDAVFeedSnapshot.FileState(
            version: file.version.rawValue, size: file.size, modified: file.modified.timeIntervalSince1970)
    }

    /// The folder ETags a snapshot keeps: all but the root's. The root is listed by every walk
    /// anyway, and where folder ETags change with anything below them its ETag changes with each
    /// snapshot the adapter writes into `.stratus/`, so keeping it would make every poll's
    /// snapshot a new one to write, which changes it again.
    static func feedFolders(_ folders: [String: String]) -> [String: String] {
        var kept = folders
        kept[RemotePath.root.string] = nil
        return kept
    }

    /// For a walk: the files below a folder from a snapshot, when the folder's ETag is the one
    /// the snapshot recorded.
    static func reuse(_ snapshot: WebDAVFeedSnapshot) -> @Sendable (RemotePath, String) -> [RemotePath: RemoteFile]? {
        { folder, etag in
            guard snapshot.folders[folder.string] == etag else { return nil }
            return entries(below: folder, in: snapshot)
        }
    }

    /// The files of a snapshot below a folder, described again from what the snapshot kept.
    static func entries(below folder: RemotePath, in snapshot: WebDAVFeedSnapshot) -> [RemotePath: RemoteFile]? {
        let prefix = folder.string + "/"
        var result: [RemotePath: RemoteFile] = [:]
        for (key, state) in snapshot.files where key.hasPrefix(prefix) {
            guard let path = try? RemotePath(key) else { return nil }
            result[path] = RemoteFile(
                path: path, id: path.string, size: state.size, modified: Date(timeIntervalSince1970: state.modified),
                contentHash: nil, version: VersionID(state.version)
            )
        }
        return result
    }

    /// Stores a snapshot (content-addressed) and returns its token.
    ///
    /// A snapshot equal to the one this instance wrote within ``snapshotRewriteInterval`` is
    /// not written again (a poll that found nothing); past it, it is, since pruning deletes
    /// snapshots not written within ``WebDAVConfiguration/feedRetention``.
    private func store(_ snapshot: WebDAVFeedSnapshot) async throws -> ChangeToken {
        let now = ContinuousClock.now
        let interval = snapshotRewriteInterval
        let unchanged = rememberedSnapshot.withLock { remembered -> String? in
            guard let remembered, let written = remembered.written, now - written < interval,
                remembered.snapshot == snapshot
            else { return nil }
            return remembered.digest
        }
        if let unchanged { return token(forSnapshot: unchanged) }
        let data = try snapshot.encoded()
        let digest = Hex.encode(Digest.sha256(data).prefix(16))
        try await ensureReservedFolder("feed")
        _ = try await transport.send(
            transport.request(
                .put, try transport.url(for: [Self.reservedFolder, "feed", digest + ".json"]), body: .bytes(data)),
            action: "PUT of a change-feed snapshot", repetition: .safe
        )
        rememberedSnapshot.withLock { $0 = RememberedFeedSnapshot(digest: digest, snapshot: snapshot, written: now) }
        return token(forSnapshot: digest)
    }

    /// How long a snapshot this instance wrote is not written again: a quarter of the feed's
    /// retention, at most an hour (none when the retention is shorter than a minute).
    var snapshotRewriteInterval: Duration {
        let retention = configuration.feedRetention
        guard retention >= .seconds(60) else { return .zero }
        return min(retention / 4, .seconds(3600))
    }

    private func token(forSnapshot digest: String) -> ChangeToken {
        ChangeToken(rawValue: "webdav1.\(remoteDigest).\(digest)")
    }

    /// Loads the snapshot a token stands for.
    private func load(_ token: ChangeToken) async throws -> WebDAVFeedSnapshot {
        let refused = ServiceError(
            .invalidChangeToken,
            "The change token was not issued by this WebDAV remote's change feed (or its snapshot is gone); list the files again and take a new token."
        )
        let parts = token.rawValue.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "webdav1", parts[1] == remoteDigest, parts[2].count == 32,
            parts[2].allSatisfy({ $0.isHexDigit && !$0.isUppercase })
        else { throw refused }
        let digest = String(parts[2])
        // Content-addressed: the snapshot this instance has at hand is the one the token names.
        if snapshotRewriteInterval > .zero,
            let remembered = rememberedSnapshot.withLock({ $0?.digest == digest ? $0?.snapshot : nil })
        {
            return remembered
        }
        let url = try transport.url(for: [Self.reservedFolder, "feed", digest + ".json"])
        do {
            let response = try await transport.send(
                transport.request(.get, url), action: "GET of a change-feed snapshot", repetition: .safe)
            guard Hex.encode(Digest.sha256(response.body).prefix(16)) == digest,
                let snapshot = try? JSONDecoder().decode(WebDAVFeedSnapshot.self, from: response.body)
            else { throw refused }
            rememberedSnapshot.withLock { remembered in
                if remembered?.digest != digest {
                    remembered = RememberedFeedSnapshot(digest: digest, snapshot: snapshot, written: nil)
                }
            }
            return snapshot
        } catch let error as ServiceError where error.code == .notFound {
            throw refused
        }
    }

    /// Names the remote a token belongs to.
    var remoteDigest: String {
        Hex.encode(Digest.sha256(Data(configuration.url.absoluteString.utf8)).prefix(6))
    }
}
