import Foundation
public import Stratus
import StratusAdapterKit
import StratusHTTP

/// The change feed over Graph's `delta` of the root folder.
///
/// `latestChangeToken` asks `delta?token=latest` (no items, just a link to the present); each
/// page of `changes(since:)` follows an `@odata.nextLink` until the `@odata.deltaLink` that
/// closes the round. Graph reports items by id with their parent's id: paths come from the
/// path index (folders are reported before what they hold, and unknown parents are looked up
/// by id). A deleted item (`deleted` facet) becomes a deletion of the path the index has for
/// its id, and of every file known below a deleted folder; a moved or renamed file becomes a
/// deletion of its old path and an upsert at the new one. A token Graph no longer accepts
/// (410 with a `resync...` code anywhere in the `innererror` chain) is
/// `invalidChangeToken`.
///
/// A page is a function of its token: reading it again (a sync that stopped before saving the
/// next token, a killed process) gives the same changes, deletions included. What the feed knew
/// of each item when it first read a page is kept (``/StratusAdapterKit/ChangePageMemory``, the
/// newest 64 pages and 20,000 entries), a file this service deleted or found missing keeps its
/// last path until the feed reports it, and with ``OneDriveConfiguration/stateFolder`` all of it
/// is saved before a page is returned, for a new process reading the same token.
///
/// Limits: a deletion of an item no instance sharing the state folder ever saw (neither listed,
/// looked up, written nor seen in the feed) cannot be named and is not reported; without a state
/// folder, that holds for each new process. A page older than the kept ones is interpreted from
/// current knowledge when read again.
extension OneDriveService {
    /// A token for the present (`delta?token=latest`).
    public func latestChangeToken() async throws -> ChangeToken {
        try await guarded {
            let rootID = try await rootID()
            try await saveState(rootID: rootID)
            var url = transport.address.item(
                .root, "delta", query: [("token", "latest"), ("$top", String(configuration.pageSize))])
            var paging = PagingGuard(action: "GET delta", maximumPages: configuration.maximumPages)
            while true {
                let page = try await transport.json(
                    "GET delta", .get, url, as: OneDrivePage<OneDriveItem>.self)
                if let deltaLink = page.deltaLink {
                    _ = try followLink(deltaLink, action: "GET delta")
                    return OneDriveChangeCursor(link: deltaLink).token
                }
                guard let next = page.nextLink else {
                    throw OneDriveErrorMapping.undecodable(
                        "GET delta", "the page has neither a nextLink nor a deltaLink")
                }
                url = try deltaURL(paging.admit(next))
            }
        }
    }

    /// A delta link to follow, on Graph's origin only, asking for the configured page size
    /// (`$top`; a link Graph wrote may not carry it).
    func deltaURL(_ link: String) throws -> URL {
        let url = try followLink(link, action: "GET delta")
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        var query = (components.percentEncodedQueryItems ?? []).filter { $0.name != "$top" && $0.name != "%24top" }
        query.append(URLQueryItem(name: "$top", value: String(configuration.pageSize)))
        components.percentEncodedQueryItems = query
        return components.url ?? url
    }

    /// One page of changes since a token.
    public func changes(since token: ChangeToken) async throws -> ChangePage {
        try await guarded {
            let cursor = try OneDriveChangeCursor(token)
            let url: URL
            do {
                url = try deltaURL(cursor.link)
            } catch {
                throw ServiceError(
                    .invalidChangeToken,
                    "This change token does not point at the configured Graph endpoint; resync from a full listing.")
            }
            let page = try await transport.json("GET delta", .get, url, as: OneDrivePage<OneDriveItem>.self)
            guard let next = page.nextLink ?? page.deltaLink else {
                throw OneDriveErrorMapping.undecodable("GET delta", "the page has neither a nextLink nor a deltaLink")
            }
            _ = try followLink(next, action: "GET delta")
            if let nextLink = page.nextLink {
                // A page that names itself as the next one would be read forever by the caller.
                var paging = PagingGuard(action: "GET delta", first: cursor.link)
                try paging.admit(nextLink)
            }
            let rootID = try await rootID()
            try await prepareState(rootID: rootID)
            var changes: [Change] = []
            var upserts: [(OneDriveItem, RemotePath)] = []
            var occurrences: [String: Int] = [:]
            for item in page.value where item.id != rootID {
                let occurrence = occurrences[item.id, default: 0]
                occurrences[item.id] = occurrence + 1
                let entry = FeedEntry(
                    known: await index.known(item.id, page: cursor.link, occurrence: occurrence), page: cursor.link,
                    occurrence: occurrence)
                for change in try await interpret(item, entry, rootID: rootID) {
                    switch change {
                    case .upserted(let file):
                        // An item's own upsert: the version is read for this item.
                        upserts.append((item, file.path))
                        changes.append(change)
                    case .deleted:
                        changes.append(change)
                    }
                }
            }
            // Every upserted file gets its current version, asked a few at a time.
            let described = Dictionary(
                try await describe(upserts).map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
            changes = changes.compactMap { change in
                guard case .upserted(let file) = change else { return change }
                return described[file.id].map { .upserted($0) }
            }
            try await saveState(rootID: rootID)
            return ChangePage(
                changes: changes, nextToken: OneDriveChangeCursor(link: next).token, hasMore: page.nextLink != nil)
        }
    }

    /// Where a delta item was read, and what the feed knew of it when it first read that entry.
    private struct FeedEntry {
        var known: OneDrivePathIndex.Known
        var page: String
        var occurrence: Int
    }

    /// The feed entries for one delta item; upserts carry a placeholder version, filled in by
    /// the caller.
    private func interpret(_ item: OneDriveItem, _ entry: FeedEntry, rootID: String) async throws -> [Change] {
        let known = entry.known.entry
        if item.isDeleted {
            return await forget(item, entry).map { .deleted($0) }
        }
        guard let parentID = item.parentReference?.id, let name = item.name,
            let folder = try await folderPath(id: parentID, rootID: rootID, depth: 0),
            let path = try? folder.appending(name)
        else {
            // Outside the root, or moved out of it.
            guard known != nil else { return [] }
            return await forget(item, entry).map { .deleted($0) }
        }
        var result: [Change] = []
        if let known, known.path != path {
            result += await forget(item, entry).map { .deleted($0) }
        }
        await index.record(path, id: item.id, isFolder: item.isFolder)
        if item.isFile {
            result.append(
                .upserted(
                    RemoteFile(
                        path: path, id: item.id, size: item.size ?? 0, modified: item.modified,
                        contentHash: item.quickXorHash, version: VersionID(item.cTag ?? item.id))))
        }
        return result
    }

    /// Forgets an item the feed reports gone from where it was; the paths that deletes.
    private func forget(_ item: OneDriveItem, _ entry: FeedEntry) async -> [RemotePath] {
        await index.forget(item.id, as: entry.known, page: entry.page, occurrence: entry.occurrence)
    }

    /// The path of a folder below the root (`.root` for the root itself), or `nil` when it lies
    /// outside or no longer exists.
    private func folderPath(id: String, rootID: String, depth: Int) async throws -> RemotePath? {
        guard depth < 64 else { return nil }
        if id == rootID { return .root }
        if let known = await index.entry(of: id), known.isFolder { return known.path }
        let folder: OneDriveItem
        do {
            folder = try await transport.json(
                "GET item", .get, transport.address.item(id: id), as: OneDriveItem.self)
        } catch let error as ServiceError where error.code == .notFound {
            return nil
        }
        guard folder.isFolder, let parentID = folder.parentReference?.id, let name = folder.name,
            let parentPath = try await folderPath(id: parentID, rootID: rootID, depth: depth + 1),
            let path = try? parentPath.appending(name)
        else { return nil }
        await index.record(path, id: id, isFolder: true)
        return path
    }

    /// The id of the root folder (asked once, then taken from the index); a folder root that
    /// does not exist yet is made, folder by folder.
    func rootID() async throws -> String {
        if let id = await index.id(of: .root) { return id }
        let root: OneDriveItem
        do {
            root = try await transport.json("GET root", .get, transport.address.item(.root), as: OneDriveItem.self)
        } catch let error as ServiceError where error.code == .notFound && configuration.root != .appFolder {
            root = try await makeRootFolders()
        }
        await index.record(.root, id: root.id, isFolder: true)
        return root.id
    }

    /// Makes the missing folders of a folder root, top down: a folder that exists is used as
    /// it is (never replaced), a missing one is made with the `fail` conflict behaviour, and one
    /// another client made meanwhile (409) is read.
    private func makeRootFolders() async throws -> OneDriveItem {
        let names = try configuration.root.components()
        var parent = "me/drive/root"
        var made: OneDriveItem?
        for (index, name) in names.enumerated() {
            let prefix = Array(names.prefix(index + 1))
            let address = transport.address.url("me/drive/root:/" + OneDriveAddress.encode(prefix) + ":")
            let folder: OneDriveItem
            if let existing = try await folderIfPresent(address) {
                folder = existing
            } else {
                let body = OneDriveJSON.body([
                    "name": name, "folder": [String: Any](), "@microsoft.graph.conflictBehavior": "fail",
                ])
                do {
                    folder = try await transport.json(
                        "POST children", .post, transport.address.url(parent + "/children"), body: body,
                        as: OneDriveItem.self, repetition: .onlyWhenRefused)
                } catch let error as ServiceError where error.code == .conflict {
                    guard let raced = try await folderIfPresent(address) else { throw error }
                    folder = raced
                }
            }
            guard folder.isFolder else {
                throw ServiceError(
                    .conflict, "A file, not a folder, is at \(prefix.joined(separator: "/")) in the OneDrive.")
            }
            made = folder
            parent = "me/drive/items/" + PercentEncoding.encode(folder.id)
        }
        guard let made else {
            throw ServiceError(.invalidConfiguration, "The OneDrive root folder has no name.")
        }
        return made
    }

    /// The item at an address, or `nil` when nothing is there.
    private func folderIfPresent(_ address: URL) async throws -> OneDriveItem? {
        do {
            return try await transport.json("GET item", .get, address, as: OneDriveItem.self)
        } catch let error as ServiceError where error.code == .notFound {
            return nil
        }
    }
}
