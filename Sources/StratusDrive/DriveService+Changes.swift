import Foundation
public import Stratus
import StratusAdapterKit
import StratusHTTP

/// The change feed over `changes.getStartPageToken` and `changes.list`, limited to the root's
/// subtree.
///
/// Drive reports changes by file id. Each changed file's path is found by walking its parents
/// up to the root (through the path index, asking Drive for folders it does not know); files
/// outside the root are skipped. A removed entry (`removed: true`) becomes a deletion of the
/// path the index has for its id. A trashed file becomes a deletion of its path, preceded by an
/// upsert of its last content when that was written after the token was issued (Drive reports
/// each file once, at its newest change, so an upload followed by a delete would otherwise be
/// lost); a file that moved or was renamed becomes a
/// deletion of its old path and an upsert at the new one. Folder entries only update the
/// index.
///
/// A page is a function of its token: reading it again (a sync that stopped before saving the
/// next token, a killed process) gives the same changes, deletions included. What the feed knew
/// of each entry when it first read a page is kept (``/StratusAdapterKit/ChangePageMemory``,
/// the newest 64 pages and 20,000 entries), a file this service deleted keeps its last path
/// until the feed reports it, and with ``DriveConfiguration/stateFolder`` all of it is saved
/// before a page is returned, for a new process reading the same token.
///
/// Limits: a removal of a file no instance sharing the state folder ever saw (neither listed,
/// looked up, written nor seen in the feed) cannot be named and is not reported; without a state
/// folder, that holds for each new process. A page older than the kept ones is interpreted from
/// current knowledge when read again. Files below a folder that was moved or renamed are not
/// reported one by one.
extension DriveService {
    /// The current start page token (`changes.getStartPageToken`).
    public func latestChangeToken() async throws -> ChangeToken {
        try await guarded {
            let action = "changes.getStartPageToken"
            let url = transport.apiURL("changes/startPageToken")
            let (answer, response) = try await transport.decoded(action, as: DriveStartPageToken.self) {
                StratusHTTPRequest(method: .get, url: url)
            }
            try await saveState()
            return DriveChangeCursor(issuedAt: HTTPDate.serverTime(response.headers), pageToken: answer.startPageToken)
                .token
        }
    }

    /// One page of changes since a token (`changes.list` with `includeRemoved=true` and the
    /// root's space). While the caller works through a page that says more follow, the next
    /// one is already being read (see `DriveChangePrefetch`).
    public func changes(since token: ChangeToken) async throws -> ChangePage {
        try await guarded {
            let cursor = try DriveChangeCursor(token)
            try await prepareState()
            let page: DriveChangeList
            let response: StratusHTTPResponse
            if let early = await changePrefetch.take(cursor.pageToken) {
                (page, response) = early
            } else {
                do {
                    (page, response) = try await DriveService.readChangePage(
                        cursor.pageToken, transport: transport, configuration: configuration)
                } catch let error as ServiceError where error.httpStatus == 400 || error.httpStatus == 404 {
                    throw ServiceError(
                        .invalidChangeToken, "Drive no longer accepts this change token; resync from a full listing.",
                        httpStatus: error.httpStatus, providerError: error.providerError)
                }
            }
            if let following = page.nextPageToken {
                changePrefetch.start(following) { [transport, configuration] in
                    try await DriveService.readChangePage(following, transport: transport, configuration: configuration)
                }
            }
            guard let next = page.nextPageToken ?? page.newStartPageToken else {
                throw DriveErrorMapping.undecodable(
                    "changes.list", "the page has neither nextPageToken nor newStartPageToken")
            }
            var changes: [Change] = []
            var occurrences: [String: Int] = [:]
            for change in page.changes where change.changeType != "drive" {
                guard let id = change.fileId ?? change.file?.id else { continue }
                let occurrence = occurrences[id, default: 0]
                occurrences[id] = occurrence + 1
                let known = await index.known(id, page: cursor.pageToken, occurrence: occurrence)
                changes += try await interpret(change, id: id, known: known, since: cursor.issuedAt)
            }
            try await saveState()
            // Until the feed is read to its end, later pages still hold changes from the token's
            // time on.
            let hasMore = page.nextPageToken != nil
            let issued = hasMore ? cursor.issuedAt : (HTTPDate.serverTime(response.headers) ?? cursor.issuedAt)
            return ChangePage(
                changes: changes, nextToken: DriveChangeCursor(issuedAt: issued, pageToken: next).token,
                hasMore: hasMore)
        }
    }

    /// The `fields` selection of every `changes.list` request the feed makes: what interpreting
    /// a change reads, no more (every field costs the server time on each of up to 1,000 entries
    /// a page). A file's `createdTime` is left out: it only orders duplicate names in listings,
    /// and a feed entry always has a `modifiedTime`.
    public static let changeFields =
        "nextPageToken,newStartPageToken,changes(changeType,fileId,removed,file(id,name,mimeType,parents,size,md5Checksum,headRevisionId,modifiedTime,trashed,appProperties))"

    /// Reads one `changes.list` page.
    private static func readChangePage(
        _ pageToken: String, transport: DriveTransport, configuration: DriveConfiguration
    ) async throws -> DriveChangePrefetch.Page {
        let url = transport.apiURL(
            "changes",
            [
                ("pageToken", pageToken),
                ("pageSize", String(configuration.pageSize)),
                ("spaces", configuration.root.space),
                ("includeRemoved", "true"),
                ("fields", DriveService.changeFields),
            ])
        let (list, response) = try await transport.decoded("changes.list", as: DriveChangeList.self) {
            StratusHTTPRequest(method: .get, url: url)
        }
        return (list, response)
    }

    /// The feed entries for one Drive change, given what the feed knew of its id when it first
    /// read this entry.
    private func interpret(
        _ change: DriveChange, id: String, known: DrivePathIndex.Location?, since issuedAt: Int64?
    ) async throws -> [Change] {
        guard !change.removed, let file = change.file else {
            guard let known else { return [] }
            await index.forget(id)
            return [.deleted(known.path)]
        }
        if file.trashed == true {
            await index.forget(id)
            guard let path = try await path(of: file) ?? known?.path else { return [] }
            var result: [Change] = []
            if !file.isFolder, !file.isGoogleNative, file.headRevisionId != nil, wasWritten(file, since: issuedAt) {
                result.append(.upserted(try remoteFile(file, at: path, action: "changes.list")))
            }
            result.append(.deleted(path))
            return result
        }
        guard let (folder, path) = try await location(of: file) else {
            // Outside the root (or moved out of it).
            guard let known else { return [] }
            await index.forget(id)
            return [.deleted(known.path)]
        }
        var result: [Change] = []
        if let known, known.path != path {
            result.append(.deleted(known.path))
        }
        if file.isFolder {
            // Whole, so that the path the index hands out for the folder is one shared array.
            await index.record(path, id: id, isFolder: true)
        } else {
            await index.recordFile(named: path.name, in: folder, id: id)
        }
        if !file.isFolder, !file.isGoogleNative, file.headRevisionId != nil {
            result.append(.upserted(try remoteFile(file, at: path, action: "changes.list")))
        }
        return result
    }

    /// Whether a file's content was written at or after a token's time (a second early, as the
    /// clocks have one-second resolution); `true` when the token's time is unknown.
    private func wasWritten(_ file: DriveFile, since issuedAt: Int64?) -> Bool {
        guard let issuedAt, let modified = file.modifiedTime else { return true }
        return Int64(modified.timeIntervalSince1970) >= issuedAt - 1
    }

    /// The path of a file below the root, or `nil` when it lies outside.
    private func path(of file: DriveFile) async throws -> RemotePath? {
        try await location(of: file)?.path
    }

    /// The folder's path and the path of a file below the root, or `nil` when it lies outside.
    private func location(of file: DriveFile) async throws -> (folder: RemotePath, path: RemotePath)? {
        guard let parentID = file.parents?.first, let folder = try await folderPath(id: parentID, depth: 0),
            let path = try? folder.appending(DriveNameRule.component(file.name))
        else {
            return nil
        }
        return (folder, path)
    }

    /// The path of a folder below the root (`.root` for the root itself), or `nil` when it lies
    /// outside or no longer exists.
    private func folderPath(id: String, depth: Int) async throws -> RemotePath? {
        guard depth < 64 else { return nil }
        if let rootID = try await rootFolderID(create: false), rootID == id { return .root }
        if let known = await index.path(of: id), known.isFolder { return known.path }
        let folder: DriveFile
        do {
            folder = try await transport.json(
                "files.get", .get, transport.apiURL("files/\(id)", [("fields", DriveFile.fields)]), as: DriveFile.self)
        } catch let error as ServiceError where error.code == .notFound {
            return nil
        }
        guard folder.isFolder, folder.trashed != true, let parentID = folder.parents?.first,
            let parentPath = try await folderPath(id: parentID, depth: depth + 1),
            let path = try? parentPath.appending(DriveNameRule.component(folder.name))
        else { return nil }
        await index.record(path, id: id, isFolder: true)
        return path
    }
}
