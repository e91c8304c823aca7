import Foundation
public import Logging
public import Stratus
import StratusAdapterKit
import StratusDigest
public import StratusHTTP
import Synchronization

/// A ``/Stratus/Service`` over a WebDAV collection (RFC 4918): Apache mod_dav, rclone, WsgiDAV,
/// Nextcloud, ownCloud and other servers.
///
/// Files are resources below the collection; folders are collections, created with MKCOL as
/// writes need them. After each write the adapter records the content's SHA-256, a version token
/// of its own and the ETag the content had, in a dead property (PROPPATCH), and downloads are
/// checked against it. Paths below `.stratus/` are the adapter's own (locks, the change journal,
/// change-feed snapshots) and are neither listed nor accepted.
///
/// ```swift
/// let service = try WebDAVService(configuration: WebDAVConfiguration(
///     url: URL(string: "https://dav.example.com/saves/")!,
///     credentials: WebDAVCredentials(user: "alice", password: "secret")
/// ))
/// ```
public final class WebDAVService: Service {
    /// The configuration in use.
    public let configuration: WebDAVConfiguration
    let transport: WebDAVTransport
    let logger: Logger
    /// Folders known to exist (the adapter's own), so they are created once per instance.
    let knownFolders = Mutex<Set<String>>([])
    /// The last journal stamp this instance used, so its entries sort in the order written.
    let lastJournalStamp = Mutex<Int64>(0)
    /// This instance's writers in line for a path's lock.
    let writers = AsyncLock(
        cancelledMessage: "The write was cancelled while it waited for another write of the same path.")
    /// Whether this instance pruned the change feed's records already.
    let feedPruned = Mutex<Bool>(false)
    /// The change-feed snapshot this instance last stored or loaded.
    let rememberedSnapshot = Mutex<RememberedFeedSnapshot?>(nil)

    /// The reserved folder below the root.
    static let reservedFolder = ".stratus"

    /// Creates a service.
    /// - Parameters:
    ///   - configuration: URL, credentials, vendor and features.
    ///   - http: The HTTP client to use; a new one by default.
    ///   - logger: Where to log; no secret is logged.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidConfiguration`` when no HTTP client can be
    ///   made.
    public init(
        configuration: WebDAVConfiguration,
        http: StratusHTTPClient? = nil,
        logger: Logger = Logger(label: "stratus.webdav", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws {
        self.configuration = configuration
        self.transport = WebDAVTransport(
            http: try StratusHTTPClient.forService(http, named: "WebDAV"), configuration: configuration)
        self.logger = logger
    }

    /// SHA-256 hashes (MD5 where the ETag is the content's MD5), conditional writes that are
    /// atomic where writes take locks the server keeps exclusive (see
    /// ``WebDAVConfiguration/locksAreExclusive``) and best effort otherwise, custom metadata
    /// where the server keeps dead properties, an emulated change feed (waited on by polling it
    /// on ``WebDAVConfiguration/pollingSchedule``: WebDAV has no change notification), and
    /// versions on Nextcloud. On Nextcloud, uploads above
    /// ``WebDAVConfiguration/chunkedUploadThreshold`` are chunked (``WebDAVConfiguration/chunkSize``);
    /// elsewhere every upload is one PUT of any size.
    public var capabilities: ServiceCapabilities {
        ServiceCapabilities(
            hashAlgorithm: configuration.etagIsMD5 && !configuration.keepsDeadProperties ? .md5 : .sha256,
            largestSingleUpload: configuration.usesChunkedUpload ? configuration.chunkedUploadThreshold : Int64.max / 2,
            chunkSize: configuration.usesChunkedUpload ? configuration.chunkSize : Int64.max / 2,
            // Apache grants one exclusive lock to several simultaneous LOCKs (see the module docs).
            conditionalWrites: configuration.usesLocks && configuration.locksAreExclusive ? .atomic : .bestEffort,
            supportsVersions: configuration.vendor == .nextcloud,
            changeFeed: .emulated,
            supportsCustomMetadata: configuration.keepsDeadProperties,
            pathRules: PathRules(isCaseSensitive: true, maximumComponentLength: configuration.maximumNameLength),
            supportsChunkedUpload: configuration.usesChunkedUpload,
            changeWaiting: .polling(configuration.pollingSchedule)
        )
    }

    // MARK: Paths

    /// Checks a path against the rules, the reserved folder and ``maximumListingDepth``.
    func validate(_ path: RemotePath) throws {
        try capabilities.pathRules.validate(path)
        if path.components.count > Self.maximumListingDepth {
            throw ServiceError(
                .invalidPath,
                "\(path) is \(path.components.count) levels deep; the WebDAV adapter lists at most \(Self.maximumListingDepth) (WebDAVService.maximumListingDepth), so it writes no deeper."
            )
        }
        if path.components.first == Self.reservedFolder {
            throw ServiceError(
                .invalidPath, "Paths below \(Self.reservedFolder)/ are reserved for the WebDAV adapter's own records.")
        }
    }

    /// Checks a path that must name a file.
    func validateFile(_ path: RemotePath) throws {
        guard !path.isRoot else { throw ServiceError(.notFound, "The root is a folder, not a file.") }
        try validate(path)
    }

    func url(for path: RemotePath, isFolder: Bool = false) throws -> URL {
        try transport.url(for: path.components, isFolder: isFolder)
    }

    /// The decoded path of the root collection, ending in `/`.
    var rootHrefPath: String {
        let path = configuration.url.path(percentEncoded: true)
        return (path.removingPercentEncoding ?? path)
    }

    /// The path of an `href` below the root: ``/Stratus/RemotePath/root`` for the root itself,
    /// `nil` for one outside it or in the reserved folder.
    func relativePath(forHref href: String) -> RemotePath? {
        var root = Substring(rootHrefPath)
        while root.hasSuffix("/") { root = root.dropLast() }
        var target = Substring(href)
        while target.hasSuffix("/") { target = target.dropLast() }
        if target == root { return .root }
        guard target.hasPrefix(root + "/") else { return nil }
        let relative = String(target.dropFirst(root.count + 1))
        guard let path = try? RemotePath(relative), path.components.first != Self.reservedFolder else { return nil }
        return path
    }

    // MARK: Descriptions

    /// The PROPFIND entry of a path (depth 0), or `nil` when nothing is there.
    func entry(_ path: RemotePath) async throws -> WebDAVEntry? {
        try await transport.propfind(try url(for: path), depth: 0, action: "PROPFIND of \(path)")?.first
    }

    /// The state record of an entry, when it is still the entry's (its ETag matches).
    func trustedState(_ entry: WebDAVEntry) -> WebDAVState? {
        guard let state = entry.state, let etag = entry.etag, state.etag == etag else { return nil }
        return state
    }

    /// The version of an entry: the adapter's token while its record holds, else the ETag.
    func version(of entry: WebDAVEntry) -> VersionID {
        if configuration.vendor == .nextcloud { return VersionID(Self.nextcloudVersionName(entry)) }
        if let state = trustedState(entry) { return VersionID(state.token) }
        return VersionID(
            "etag:" + (entry.etag ?? "\(entry.size ?? 0)-\(Int64(entry.modified?.timeIntervalSince1970 ?? 0))"))
    }

    /// The content hash of an entry, when known.
    func contentHash(of entry: WebDAVEntry) -> ContentHash? {
        if let state = trustedState(entry) { return ContentHash(algorithm: .sha256, value: state.sha256) }
        if configuration.etagIsMD5, !configuration.keepsDeadProperties, let etag = entry.etag, etag.count == 32,
            etag.allSatisfy(\.isHexDigit)
        {
            return ContentHash(algorithm: .md5, value: etag)
        }
        return nil
    }

    /// A ``/Stratus/RemoteFile`` for an entry.
    func file(_ path: RemotePath, from entry: WebDAVEntry) -> RemoteFile {
        RemoteFile(
            path: path,
            id: entry.fileID ?? path.string,
            size: entry.size ?? 0,
            modified: entry.modified ?? Date(timeIntervalSince1970: 0),
            contentHash: contentHash(of: entry),
            version: version(of: entry),
            metadata: WebDAVProperties.decode(entry.metadata) ?? [:]
        )
    }

    /// Describes the file at a path through PROPFIND (depth 0).
    public func metadata(of path: RemotePath) async throws -> RemoteFile {
        try await guarded {
            try validateFile(path)
            guard let entry = try await entry(path), !entry.isCollection else {
                throw ServiceError(.notFound, "No file at \(path).")
            }
            return file(path, from: entry)
        }
    }

    // MARK: Listing

    /// Lists the files below a folder: PROPFIND with depth 1 on each folder (never infinity),
    /// four folders at a time.
    public func list(_ folder: RemotePath) async throws -> [RemoteFile] {
        try await guarded {
            try validate(folder)
            let tree = try await walk(folder)
            // A root collection that was never made is an empty remote.
            if tree == nil, folder.isRoot { return [] }
            guard let tree else { throw ServiceError(.notFound, "No folder \(folder).") }
            return Array(tree.files.values)
        }
    }

    /// What a walk found: every file below a folder, and the ETag of every folder.
    struct Tree: Sendable {
        var files: [RemotePath: RemoteFile] = [:]
        var folders: [String: String] = [:]
    }

    /// The deepest folder a walk lists, in path components below the root: a server whose
    /// folders go deeper (such as one that answers every listing with a subfolder `a/`) gets
    /// ``listingTooDeep(_:)`` instead of a walk without end, and paths deeper than this are not
    /// written (see ``validate(_:)``), so the adapter never writes what it cannot list.
    static let maximumListingDepth = 64

    /// The most folders one walk lists: a server that makes up folders without end gets an
    /// error after this many PROPFINDs.
    static let maximumListingFolders = 100_000

    /// The error of a walk that met a folder deeper than ``maximumListingDepth``. It is an
    /// error, never a walk cut short: a change feed or a sync would take the files below the
    /// cut for deleted.
    static func listingTooDeep(_ folder: RemotePath) -> ServiceError {
        ServiceError(
            .invalidResponse,
            "The WebDAV server lists folders nested more than \(maximumListingDepth) levels deep (the adapter's limit, WebDAVService.maximumListingDepth), below \(folder.components.prefix(3).joined(separator: "/"))/...; the listing was stopped instead of being reported incomplete."
        )
    }

    /// The error of a walk that would list more than ``maximumListingFolders`` folders.
    static var listingTooLarge: ServiceError {
        ServiceError(
            .invalidResponse,
            "The WebDAV server lists more than \(maximumListingFolders) folders (the adapter's limit, WebDAVService.maximumListingFolders); the listing was stopped instead of being reported incomplete."
        )
    }

    /// Walks a folder with PROPFIND depth 1 per folder; `reuse` gives, for a folder whose ETag
    /// is unchanged, the files below it from an earlier walk, so that subtree is not read.
    ///
    /// Only the folder itself and its direct children are taken from each answer; anything else
    /// a server names there (an ancestor, a grandchild, a path outside the root) is ignored, so
    /// an answer that names the folder's parent cannot send the walk round in a circle. Each
    /// folder is listed once. A folder deeper than ``maximumListingDepth``, or more folders
    /// than ``maximumListingFolders``, ends the walk with an error: never with a partial tree,
    /// which the change feed would report as deletions.
    /// - Returns: The tree, or `nil` when the folder does not exist (or is a file).
    /// - Throws: ``/Stratus/ServiceError/Code/invalidResponse`` past those limits; what a
    ///   PROPFIND throws.
    func walk(_ folder: RemotePath, reuse: (@Sendable (RemotePath, String) -> [RemotePath: RemoteFile]?)? = nil)
        async throws -> Tree?
    {
        guard let first = try await listFolder(folder) else { return nil }
        var tree = Tree()
        var visited: Set<RemotePath> = [folder]
        var pending: [(RemotePath, [WebDAVEntry])] = [(folder, first)]
        while !pending.isEmpty {
            var next: [RemotePath] = []
            for (parent, entries) in pending {
                for entry in entries {
                    guard let path = relativePath(forHref: entry.href) else { continue }
                    if path == parent {
                        if let etag = entry.etag { tree.folders[path.string] = etag }
                        continue
                    }
                    // Only direct children: an ancestor or a deeper path is not this folder's.
                    guard path.parent == parent else { continue }
                    if entry.isCollection {
                        guard visited.insert(path).inserted else { continue }
                        if let etag = entry.etag, let reused = reuse?(path, etag) {
                            tree.folders[path.string] = etag
                            tree.files.merge(reused) { $1 }
                        } else {
                            guard path.components.count <= Self.maximumListingDepth else {
                                throw Self.listingTooDeep(path)
                            }
                            guard visited.count <= Self.maximumListingFolders else { throw Self.listingTooLarge }
                            next.append(path)
                        }
                    } else {
                        tree.files[path] = file(path, from: entry)
                    }
                }
            }
            pending = try await withThrowingTaskGroup(of: (RemotePath, [WebDAVEntry]?).self) { group in
                var results: [(RemotePath, [WebDAVEntry])] = []
                var index = 0
                func addNext() {
                    guard index < next.count else { return }
                    let path = next[index]
                    index += 1
                    group.addTask { (path, try await self.listFolder(path)) }
                }
                for _ in 0..<4 { addNext() }
                while let (path, entries) = try await group.next() {
                    if let entries { results.append((path, entries)) }
                    addNext()
                }
                return results
            }
        }
        return tree
    }

    /// PROPFIND depth 1 of a folder; `nil` when it does not exist or is a file.
    func listFolder(_ folder: RemotePath) async throws -> [WebDAVEntry]? {
        guard
            let entries = try await transport.propfind(
                try url(for: folder, isFolder: true), depth: 1,
                action: "PROPFIND of \(folder.isRoot ? "the root" : folder.string)")
        else {
            return nil
        }
        // A file answers a depth-1 PROPFIND with itself alone.
        if entries.count == 1, !entries[0].isCollection { return nil }
        return entries
    }

    // MARK: Errors

    /// Runs a call so that it throws ``/Stratus/ServiceError`` only.
    func guarded<Result: Sendable>(function: String = #function, _ body: () async throws -> Result)
        async throws -> Result
    {
        try await ServiceError.guarding("WebDAV", function: function, body)
    }
}
