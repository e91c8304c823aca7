import Foundation
public import Logging
public import Stratus
import StratusAdapterKit
import StratusDigest
public import StratusHTTP
import Synchronization

/// A ``/Stratus/Service`` over the Google Drive API v3, rooted at the app's hidden application
/// data folder or at a folder in My Drive.
///
/// - **Paths** are resolved folder by folder (`'<parent>' in parents and name = '<name>' and
///   trashed = false`); parent folders are created as needed. Drive allows several entries with
///   one name in a folder: a path means the oldest (see "Duplicate names" below), never a
///   random one.
/// - **Uploads** up to ``DriveConfiguration/singleUploadLimit`` go up in one
///   `uploadType=multipart` request, larger ones in a resumable session of
///   ``DriveConfiguration/chunkSize`` pieces; an interrupted session asks Drive how much arrived
///   (`Content-Range: bytes */N`) and goes on from there. Drive's `md5Checksum` of the result is
///   checked against the MD5 of what was sent.
/// - **Downloads** stream to a temporary file beside the destination and replace it only when
///   the MD5 matches Drive's `md5Checksum`.
/// - **Preconditions** are best effort: Drive has no compare-and-swap, so `mustMatch` compares
///   `headRevisionId` and `mustNotExist` looks the name up just before the write. Another client
///   writing in the window between that check and the write (one request's round trip) is not
///   detected. Within one `DriveService`, conditional writes to the same path are not
///   serialized either.
/// - **Versions** are Drive revisions (`headRevisionId`); `restore` uploads the old revision's
///   content as a new head, so history only grows. Drive purges unpinned old revisions about
///   30 days after newer content arrives.
/// - **Delete** follows ``DriveConfiguration/deleteMode``: in a My Drive folder it moves the
///   file to the trash by default, so the user can restore it (with its revisions) for 30
///   days; in the application data folder it deletes for good (`files.delete`), since the user
///   never sees those files in a trash. Either way the path is free for a new file at once.
///
/// Duplicate names: among same-named entries of one folder, a path names the one with the
/// smallest `createdTime`, ties broken by the smallest `id`; the others are left alone and not
/// listed. Files are never merged or renamed. The one exception is a folder this service has
/// just created while another client created one of the same name: the later one is merged into
/// the older and trashed (see `DriveService+FolderRace.swift`).
///
/// ```swift
/// let service = try DriveService(
///     configuration: DriveConfiguration(root: .appDataFolder),
///     credentials: .provider(provider)
/// )
/// ```
public final class DriveService: Service {
    /// The configuration in use.
    public let configuration: DriveConfiguration
    let transport: DriveTransport
    let index = DrivePathIndex()
    let changePrefetch = DriveChangePrefetch()
    let rootComponents: [String]
    let logger: Logger
    private let rootID = Mutex<String?>(nil)

    /// Creates a service.
    /// - Parameters:
    ///   - configuration: Endpoints, root and sizes.
    ///   - credentials: How requests are authorized.
    ///   - http: The HTTP client to use; a new one by default. It must not follow redirects
    ///     (the default), since a resumable upload's 308 is an answer, not a redirect.
    ///   - logger: Where to log; no secret is logged.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidConfiguration`` for a bad root or when no
    ///   HTTP client can be made.
    public init(
        configuration: DriveConfiguration,
        credentials: DriveCredentials,
        http: StratusHTTPClient? = nil,
        logger: Logger = Logger(label: "stratus.drive", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws {
        self.configuration = configuration
        self.rootComponents = try configuration.root.components()
        let client = try StratusHTTPClient.forService(http, named: "Drive")
        self.transport = DriveTransport(http: client, credentials: credentials, configuration: configuration)
        self.logger = logger
    }

    /// The rules Drive applies to names: case-sensitive (`Save.json` and `save.json` are two
    /// files), any character allowed (a `/` cannot be expressed in a ``/Stratus/RemotePath``).
    public static let pathRules = PathRules(isCaseSensitive: true)

    /// Content hash MD5, best-effort conditional writes, versions, custom metadata
    /// (`appProperties`), and Drive's change feed: `native` under a folder of My Drive, where a
    /// delete moves the file to the trash and the feed can name it; `emulated` (the net change
    /// between polls) in the application data folder, where a delete is permanent and Drive
    /// reports each file once, at its newest change, so a file created and deleted between two
    /// polls may not appear. Waiting for changes polls `changes.list` on
    /// ``DriveConfiguration/pollingSchedule``: Drive's push notifications (`changes.watch`) need
    /// a public HTTPS endpoint to call back, which a device does not have.
    public var capabilities: ServiceCapabilities {
        ServiceCapabilities(
            hashAlgorithm: .md5,
            largestSingleUpload: configuration.singleUploadLimit,
            chunkSize: configuration.chunkSize,
            conditionalWrites: .bestEffort,
            supportsVersions: true,
            changeFeed: configuration.root == .appDataFolder ? .emulated : .native,
            supportsCustomMetadata: true,
            pathRules: DriveService.pathRules,
            changeWaiting: .polling(configuration.pollingSchedule)
        )
    }

    /// Describes the file at a path (`files.list` in its folder); a folder is `notFound`.
    public func metadata(of path: RemotePath) async throws -> RemoteFile {
        try await guarded {
            let file = try await requireFile(at: path)
            return try remoteFile(file, at: path, action: "files.list")
        }
    }

    /// Lists the files below a folder, folder by folder (`files.list` with
    /// `'<id>' in parents and trashed = false`, every page).
    public func list(_ folder: RemotePath) async throws -> [RemoteFile] {
        try await guarded {
            try DriveService.pathRules.validate(folder)
            guard let folderID = try await folderID(folder, create: false) else {
                if folder.isRoot { return [] }
                throw ServiceError(.notFound, "No folder is at \(folder).")
            }
            var files: [RemoteFile] = []
            var pending: [(RemotePath, String)] = [(folder, folderID)]
            while let (path, id) = pending.popLast() {
                let children = try await children(of: id, named: nil)
                let byName = Dictionary(grouping: children, by: { NameKey(DriveNameRule.component($0.name)) })
                for (name, entries) in byName {
                    guard let childPath = try? path.appending(name.text) else { continue }
                    if let subfolder = DriveNameRule.preferred(entries.filter(\.isFolder)) {
                        await index.record(childPath, id: subfolder.id, isFolder: true)
                        pending.append((childPath, subfolder.id))
                    }
                    if let file = DriveNameRule.preferred(entries.filter { !$0.isFolder && !$0.isGoogleNative }) {
                        await index.record(childPath, id: file.id, isFolder: false)
                        files.append(try remoteFile(file, at: childPath, action: "files.list"))
                    }
                }
            }
            await saveStateAfterWrite()
            return files
        }
    }

    /// Deletes a file: moves it to the trash or deletes it for good, as
    /// ``DriveConfiguration/deleteMode`` says. `mustMatch` compares `headRevisionId` first.
    ///
    /// When the outcome is unknown (the connection failed), the file is looked up by id before
    /// the request is repeated.
    public func delete(_ path: RemotePath, precondition: WritePrecondition) async throws {
        try await guarded {
            let file = try await requireFile(at: path)
            try precondition.check(current: file.currentVersion, at: path, for: .delete)
            let mode = configuration.deleteMode
            let action = mode == .trash ? "files.update (trash)" : "files.delete"
            let trash = try DriveJSONBody.encode(["trashed": .bool(true)])
            let url =
                mode == .trash
                ? transport.apiURL("files/\(file.id)", [("fields", "id,trashed")])
                : transport.apiURL("files/\(file.id)")
            let fileID = file.id
            try await configuration.retryPolicy.runWrite(lookFirst: { try await fileExists(id: fileID) ? nil : () }) {
                _ in
                _ = try await transport.send(action, repetition: .never) {
                    mode == .trash
                        ? DriveTransport.request(.patch, url, json: trash)
                        : StratusHTTPRequest(method: .delete, url: url)
                }
            }
            await index.deleted(file.id)
            await saveStateAfterWrite()
        }
    }

    /// The revisions of a file (`revisions.list`, every page), newest first.
    public func versions(of path: RemotePath) async throws -> [FileVersion] {
        try await guarded {
            let file = try await requireFile(at: path)
            let revisions = try await revisions(of: file.id)
            guard !revisions.isEmpty else {
                throw ServiceError(.notFound, "Drive keeps no revision of \(path).")
            }
            return try revisions.reversed().map { revision in
                guard let size = revision.size else {
                    throw DriveErrorMapping.undecodable("revisions.list", "revision \(revision.id) has no size")
                }
                return FileVersion(
                    id: VersionID(revision.id),
                    size: size,
                    modified: revision.modifiedTime ?? Date(timeIntervalSince1970: 0),
                    contentHash: revision.md5Checksum.map { ContentHash(algorithm: .md5, value: $0) }
                )
            }
        }
    }

    /// Every revision of a file, oldest first, as Drive lists them.
    func revisions(of fileID: String) async throws -> [DriveRevision] {
        var all: [DriveRevision] = []
        var pageToken: String?
        var paging = PagingGuard(action: "revisions.list")
        repeat {
            var query = [
                ("fields", "nextPageToken,revisions(\(DriveRevision.fields))"),
                ("pageSize", String(configuration.pageSize)),
            ]
            if let pageToken { query.append(("pageToken", pageToken)) }
            let page = try await transport.json(
                "revisions.list", .get, transport.apiURL("files/\(fileID)/revisions", query), as: DriveRevisionList.self
            )
            all += page.revisions
            pageToken = try page.nextPageToken.map { try paging.admit($0) }
        } while pageToken != nil
        return all
    }

    /// Makes an old revision current again: its content is downloaded (MD5-checked) and uploaded
    /// as the new head revision, so the history only grows. Custom metadata is kept.
    ///
    /// The content is staged in a folder of its own (mode 0700) in the temporary directory,
    /// removed at the end: there is no local destination to stage beside, and no other user may
    /// read it meanwhile.
    public func restore(_ path: RemotePath, to version: VersionID) async throws -> RemoteFile {
        try await guarded {
            let file = try await requireFile(at: path)
            let folder = FileManager.default.temporaryDirectory.appending(
                path: "stratus-drive-restore-\(UUID().uuidString)")
            do {
                try FileManager.default.createDirectory(
                    at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            } catch {
                throw ServiceError(
                    .localFile,
                    "A private folder for the restored content could not be made in \(folder.deletingLastPathComponent().path).",
                    underlying: error)
            }
            defer { try? FileManager.default.removeItem(at: folder) }
            let temporary = folder.appending(path: "content")
            _ = try await downloadRevision(
                of: file, at: path, revision: version.rawValue, to: temporary,
                progress: MonotonicProgress(nil, total: nil))
            return try await upload(from: .file(temporary), to: path, options: UploadOptions())
        }
    }

    // MARK: Helpers

    /// A ``/Stratus/RemoteFile`` from a Drive file at a known path.
    func remoteFile(_ file: DriveFile, at path: RemotePath, action: String) throws -> RemoteFile {
        guard let revision = file.headRevisionId else {
            throw DriveErrorMapping.undecodable(
                action, "the file \(file.id) has no headRevisionId (is it a Google Docs file?)")
        }
        return RemoteFile(
            path: path,
            id: file.id,
            size: file.size ?? 0,
            modified: file.modifiedTime ?? file.createdTime ?? Date(timeIntervalSince1970: 0),
            contentHash: file.md5Checksum.map { ContentHash(algorithm: .md5, value: $0) },
            version: VersionID(revision),
            metadata: file.appProperties ?? [:]
        )
    }

    /// The cached id of the root folder, if known.
    var knownRootID: String? { rootID.withLock { $0 } }

    /// Remembers the id of the root folder.
    func rememberRootID(_ id: String) { rootID.withLock { $0 = id } }

    /// Runs a call so that it throws ``/Stratus/ServiceError`` only.
    func guarded<Result: Sendable>(function: String = #function, _ body: () async throws -> Result)
        async throws -> Result
    {
        try await ServiceError.guarding("Drive", function: function, body)
    }
}

/// A name compared Unicode scalar by Unicode scalar, for grouping a folder's entries (Swift's
/// `String` equality would merge NFC and NFD spellings, which Drive keeps apart).
struct NameKey: Hashable {
    let text: String

    init(_ text: String) { self.text = text }

    static func == (lhs: NameKey, rhs: NameKey) -> Bool { lhs.text.utf8.elementsEqual(rhs.text.utf8) }

    func hash(into hasher: inout Hasher) {
        for byte in text.utf8 { hasher.combine(byte) }
    }
}
