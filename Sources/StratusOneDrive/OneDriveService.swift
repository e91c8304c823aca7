import Foundation
public import Logging
public import Stratus
import StratusAdapterKit
import StratusDigest
public import StratusHTTP

/// A ``/Stratus/Service`` over Microsoft Graph's OneDrive API (v1.0), rooted at the app's own
/// folder (`/me/drive/special/approot`) or at a folder of the user's drive.
///
/// - **Paths** are Graph path addresses (`special/approot:/a/b.txt:`); names are compared
///   without regard to case, as OneDrive compares them. Folders are made by the uploads
///   themselves (a path-addressed upload creates its missing parents).
/// - **Uploads** up to ``OneDriveConfiguration/simpleUploadLimit`` are one `PUT .../content`,
///   larger ones an upload session (`createUploadSession`) sent in fragments of
///   ``OneDriveConfiguration/fragmentSize`` with no `Authorization` header, resumed from the
///   session's `nextExpectedRanges` after a dropped connection. The name-clash behaviour is
///   always stated in the URL or the session's item (`replace`, or `fail` for `mustNotExist`).
///   Graph's `quickXorHash` of the result is checked against the hash of what was sent.
/// - **Downloads** ask `.../content`, which answers 302 to a pre-authenticated URL; that URL is
///   fetched without the bearer token, continued with `Range` after a dropped connection, and
///   checked against `quickXorHash` (and `sha256Hash` when Graph reports one) before the
///   destination is replaced.
/// - **Preconditions** are atomic: `mustNotExist` sends `If-None-Match: *` with the `fail`
///   conflict behaviour, `mustMatch` sends `If-Match` with the item's `cTag` (its content tag,
///   which an upload's later eTag drift leaves alone) after checking the version. A 412 is
///   re-read before it is reported: when the item still holds the expected version, the
///   write is sent once more with the fresh tag.
/// - **Versions** are Graph's `driveItemVersion`s (`1.0`, `2.0`, ...), newest first;
///   ``/Stratus/RemoteFile/version`` is the id of the current one, read with `GET .../versions`
///   because a `driveItem` does not carry it (one request more per described file). `restore`
///   calls `restoreVersion`, which makes a new version: history only grows.
/// - **Custom metadata** is not supported: Graph keeps no per-item key-value properties for
///   files in a personal OneDrive that an app can rely on.
public final class OneDriveService: Service {
    /// The configuration in use.
    public let configuration: OneDriveConfiguration
    let transport: OneDriveTransport
    let index = OneDrivePathIndex()
    let logger: Logger

    /// Creates a service.
    /// - Parameters:
    ///   - configuration: Endpoint, root and sizes.
    ///   - credentials: How requests are authorized.
    ///   - http: The HTTP client to use; a new one by default. It must not follow redirects
    ///     (the default): the 302 of a download is followed here, without the bearer token.
    ///   - logger: Where to log; no secret is logged.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidConfiguration`` for a bad root or when no
    ///   HTTP client can be made.
    public init(
        configuration: OneDriveConfiguration,
        credentials: OneDriveCredentials,
        http: StratusHTTPClient? = nil,
        logger: Logger = Logger(label: "stratus.onedrive", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws {
        self.configuration = configuration
        let client = try StratusHTTPClient.forService(http, named: "OneDrive")
        let address = OneDriveAddress(
            apiURL: configuration.apiURL, rootComponents: try configuration.root.components(),
            isAppFolder: configuration.root == .appFolder)
        self.transport = OneDriveTransport(
            http: client, credentials: credentials, configuration: configuration, address: address)
        self.logger = logger
    }

    /// OneDrive's naming rules: case-insensitive, none of `" * : < > ? \ |`, at most 255 bytes
    /// a name and 400 characters a path.
    public static let pathRules = PathRules(
        isCaseSensitive: false,
        forbiddenCharacters: ["\"", "*", ":", "<", ">", "?", "\\", "|"],
        maximumComponentLength: 255,
        maximumPathLength: 400
    )

    /// QuickXorHash, atomic conditional writes, versions, no custom metadata, and an emulated
    /// change feed: Graph's delta reports each changed item once, at its current state, so a
    /// file created and deleted between two polls may not appear.
    public var capabilities: ServiceCapabilities {
        ServiceCapabilities(
            hashAlgorithm: .quickXorHash,
            largestSingleUpload: configuration.simpleUploadLimit,
            chunkSize: configuration.fragmentSize,
            conditionalWrites: .atomic,
            supportsVersions: true,
            changeFeed: .emulated,
            supportsCustomMetadata: false,
            pathRules: OneDriveService.pathRules,
            changeWaiting: .polling(configuration.pollingSchedule)
        )
    }

    /// Describes the file at a path (`GET` of the item and of its versions); a folder is
    /// `notFound`.
    public func metadata(of path: RemotePath) async throws -> RemoteFile {
        try await guarded {
            let item = try await requireFile(at: path)
            return try await remoteFile(item, at: path)
        }
    }

    /// Lists the files below a folder, folder by folder (`GET .../children`, every page).
    public func list(_ folder: RemotePath) async throws -> [RemoteFile] {
        try await guarded {
            try OneDriveService.pathRules.validate(folder)
            var found: [(OneDriveItem, RemotePath)] = []
            var pending: [RemotePath] = [folder]
            var first = true
            while let path = pending.popLast() {
                let children: [OneDriveItem]
                do {
                    children = try await self.children(of: path)
                } catch let error as ServiceError where error.code == .notFound && first {
                    if folder.isRoot { return [] }
                    throw ServiceError(.notFound, "No folder is at \(folder).")
                }
                first = false
                for child in children {
                    guard let name = child.name, let childPath = try? path.appending(name) else { continue }
                    if let limit = OneDriveService.pathRules.maximumPathLength, childPath.string.utf8.count > limit {
                        // OneDrive holds no such path: a server whose folders never end would
                        // otherwise be descended forever.
                        throw ServiceError(
                            .invalidResponse,
                            "OneDrive listed an item below \(folder) deeper than its \(limit)-character path limit; the listing was stopped."
                        )
                    }
                    await index.record(childPath, id: child.id, isFolder: child.isFolder)
                    if child.isFolder {
                        pending.append(childPath)
                    } else if child.isFile {
                        found.append((child, childPath))
                    }
                }
            }
            await saveStateAfterWrite()
            return try await describe(found)
        }
    }

    /// Deletes a file (`DELETE` of the item, with `If-Match` on its `cTag` for `mustMatch`).
    public func delete(_ path: RemotePath, precondition: WritePrecondition) async throws {
        try await guarded {
            let item = try await requireFile(at: path)
            let ifMatch: String?
            if case .mustMatch = precondition {
                let version = try await currentVersion(of: item)
                try precondition.check(current: version, at: path, for: .delete)
                ifMatch = item.cTag
            } else {
                try precondition.check(current: VersionID(item.id), at: path, for: .delete)
                ifMatch = nil
            }
            let url = transport.address.item(id: item.id)
            let itemID = item.id
            try await configuration.retryPolicy.runWrite(lookFirst: {
                try await self.itemExists(id: itemID) ? nil : ()
            }) { _ in
                _ = try await transport.send("DELETE item", repetition: .never) {
                    var request = StratusHTTPRequest(method: .delete, url: url)
                    if let ifMatch { request.headers.set("If-Match", ifMatch) }
                    return request
                }
            }
            await index.deleted(item.id)
            await saveStateAfterWrite()
        }
    }

    /// The versions of a file (`GET .../versions`, every page), newest first.
    public func versions(of path: RemotePath) async throws -> [FileVersion] {
        try await guarded {
            let item = try await requireFile(at: path)
            let versions = try await graphVersions(of: item.id)
            guard !versions.isEmpty else {
                throw ServiceError(.notFound, "OneDrive keeps no version of \(path).")
            }
            return versions.enumerated().map { offset, version in
                FileVersion(
                    id: VersionID(version.id),
                    size: version.size ?? (offset == 0 ? item.size ?? 0 : 0),
                    modified: version.modified,
                    contentHash: offset == 0 ? item.quickXorHash : nil
                )
            }
        }
    }

    /// Makes an old version current again (`POST .../versions/{id}/restoreVersion`), as a new
    /// version: the history only grows.
    public func restore(_ path: RemotePath, to version: VersionID) async throws -> RemoteFile {
        try await guarded {
            let item = try await requireFile(at: path)
            let versions = try await graphVersions(of: item.id)
            guard versions.contains(where: { $0.id == version.rawValue }) else {
                throw ServiceError(.notFound, "OneDrive has no version \(version) of \(path).")
            }
            let url = transport.address.item(
                id: item.id, "versions/" + PercentEncoding.encode(version.rawValue) + "/restoreVersion")
            let before = versions.first?.id
            try await configuration.retryPolicy.runWrite(lookFirst: {
                let now = try await self.graphVersions(of: item.id).first?.id
                return now != before ? () : nil
            }) { _ in
                _ = try await transport.send("POST restoreVersion", repetition: .never) {
                    StratusHTTPRequest(method: .post, url: url)
                }
            }
            let restored = try await requireFile(at: path)
            return try await remoteFile(restored, at: path)
        }
    }

    // MARK: Helpers

    /// The item at a path, or `nil` when nothing is there.
    func item(at path: RemotePath) async throws -> OneDriveItem? {
        try OneDriveService.pathRules.validate(path)
        do {
            let item = try await transport.json("GET item", .get, transport.address.item(path), as: OneDriveItem.self)
            await index.record(path, id: item.id, isFolder: item.isFolder)
            return item
        } catch let error as ServiceError where error.code == .notFound {
            await index.forget(path: path)
            return nil
        }
    }

    /// The file at a path.
    /// - Throws: ``/Stratus/ServiceError/Code/notFound`` when nothing or a folder is there.
    func requireFile(at path: RemotePath) async throws -> OneDriveItem {
        guard !path.isRoot, let item = try await item(at: path) else {
            throw ServiceError(.notFound, "No file is at \(path).")
        }
        guard item.isFile else {
            throw ServiceError(.notFound, "A folder, not a file, is at \(path).")
        }
        return item
    }

    /// Whether an item still exists, by id.
    func itemExists(id: String) async throws -> Bool {
        do {
            _ = try await transport.json("GET item", .get, transport.address.item(id: id), as: OneDriveItem.self)
            return true
        } catch let error as ServiceError where error.code == .notFound {
            return false
        }
    }

    /// Every child of a folder, every page; a link back to a page already read, or more than
    /// ``OneDriveConfiguration/maximumPages`` pages, is `invalidResponse`.
    func children(of folder: RemotePath) async throws -> [OneDriveItem] {
        var all: [OneDriveItem] = []
        var paging = PagingGuard(action: "GET children", maximumPages: configuration.maximumPages)
        var next: URL? = transport.address.item(
            folder, "children", query: [("$top", String(configuration.pageSize))])
        while let url = next {
            let page = try await transport.json("GET children", .get, url, as: OneDrivePage<OneDriveItem>.self)
            all += page.value
            next = try page.nextLink.map { try followLink(paging.admit($0), action: "GET children") }
        }
        return all
    }

    /// Every version of a file, newest first, as Graph lists them; paged like ``children(of:)``.
    func graphVersions(of id: String) async throws -> [OneDriveVersion] {
        var all: [OneDriveVersion] = []
        var paging = PagingGuard(action: "GET versions", maximumPages: configuration.maximumPages)
        var next: URL? = transport.address.item(id: id, "versions")
        while let url = next {
            let page = try await transport.json("GET versions", .get, url, as: OneDrivePage<OneDriveVersion>.self)
            all += page.value
            next = try page.nextLink.map { try followLink(paging.admit($0), action: "GET versions") }
        }
        return all
    }

    /// The id of a file's current version (the first Graph lists); the `cTag` when Graph keeps
    /// no versions of it.
    /// A version read before at the same cTag is taken from the index instead of being asked
    /// again. It is remembered only when the version's time is the item's, so a write that came
    /// between the two reads is not tied to the older cTag.
    func currentVersion(of item: OneDriveItem) async throws -> VersionID {
        if let cTag = item.cTag, let known = await index.version(of: item.id, cTag: cTag) { return known }
        let versions = try await graphVersions(of: item.id)
        if let first = versions.first {
            let version = VersionID(first.id)
            if let cTag = item.cTag, let time = first.lastModifiedDateTime, time == item.lastModifiedDateTime {
                await index.record(version: version, of: item.id, cTag: cTag)
            }
            return version
        }
        guard let cTag = item.cTag else {
            throw OneDriveErrorMapping.undecodable(
                "GET versions", "the file \(item.id) has neither versions nor a cTag")
        }
        return VersionID(cTag)
    }

    /// A ``/Stratus/RemoteFile`` from a Graph file at a known path.
    func remoteFile(_ item: OneDriveItem, at path: RemotePath, version: VersionID? = nil) async throws -> RemoteFile {
        let current: VersionID
        if let version {
            current = version
        } else {
            current = try await currentVersion(of: item)
        }
        return RemoteFile(
            path: path, id: item.id, size: item.size ?? 0, modified: item.modified,
            contentHash: item.quickXorHash, version: current)
    }

    /// Describes files, asking for their versions a few at a time.
    /// A file deleted since it was listed (its versions are gone) is left out: the next listing or
    /// change page reports it deleted.
    func describe(_ files: [(OneDriveItem, RemotePath)]) async throws -> [RemoteFile] {
        try await withThrowingTaskGroup(of: (Int, RemoteFile?).self) { group in
            var described: [RemoteFile?] = Array(repeating: nil, count: files.count)
            var nextIndex = 0
            func startNext() {
                guard nextIndex < files.count else { return }
                let (index, (item, path)) = (nextIndex, files[nextIndex])
                nextIndex += 1
                group.addTask {
                    do {
                        return (index, try await self.remoteFile(item, at: path))
                    } catch let error as ServiceError where error.code == .notFound {
                        return (index, nil)
                    }
                }
            }
            for _ in 0..<8 { startNext() }
            while let (index, file) = try await group.next() {
                described[index] = file
                startNext()
            }
            return described.compactMap { $0 }
        }
    }

    /// A `@odata.nextLink` or `@odata.deltaLink`, accepted only on Graph's own origin (the
    /// bearer token would go there).
    func followLink(_ text: String, action: String) throws -> URL {
        guard let url = URL(string: text), URLOrigin.same(url, configuration.apiURL) else {
            throw OneDriveErrorMapping.undecodable(action, "a next-page link that is not on the Graph origin")
        }
        return url
    }

    /// Runs a call so that it throws ``/Stratus/ServiceError`` only.
    func guarded<Result: Sendable>(function: String = #function, _ body: () async throws -> Result)
        async throws -> Result
    {
        try await ServiceError.guarding("OneDrive", function: function, body)
    }
}
