import Foundation
public import Logging
public import Stratus
import StratusAdapterKit
import StratusDigest
public import StratusHTTP
import Synchronization

/// A ``/Stratus/Service`` over the Dropbox API v2, rooted at a folder of the account.
///
/// Uploads up to ``DropboxConfiguration/singleUploadLimit`` go up in one `files/upload`
/// request; larger ones in an upload session of ``DropboxConfiguration/chunkSize`` pieces.
/// Every upload request carries the `content_hash` of its bytes, and downloads are checked
/// against the `content_hash` Dropbox reports before they replace the destination.
///
/// ```swift
/// let service = try DropboxService(
///     configuration: DropboxConfiguration(root: "/Backups"),
///     credentials: .provider(provider)
/// )
/// ```
public final class DropboxService: Service {
    /// The configuration in use.
    public let configuration: DropboxConfiguration
    let transport: DropboxTransport
    let paths: DropboxPathMapper
    let logger: Logger
    /// The property templates that carry custom metadata.
    let templates: PropertyTemplateRegistry
    /// Commits uploads in batches, when ``DropboxConfiguration/commitBatching`` asks for it.
    let batches: BatchCommitter?
    /// Until when Dropbox asked this instance not to long-poll again (its `backoff`).
    let longpollBackoff = Mutex<ContinuousClock.Instant?>(nil)

    /// Creates a service.
    /// - Parameters:
    ///   - configuration: Endpoints, root and sizes.
    ///   - credentials: How requests are authorized.
    ///   - http: The HTTP client to use; a new one by default.
    ///   - logger: Where to log; no secret is logged.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidConfiguration`` for a bad root or when no
    ///   HTTP client can be made.
    public init(
        configuration: DropboxConfiguration,
        credentials: DropboxCredentials,
        http: StratusHTTPClient? = nil,
        logger: Logger = Logger(label: "stratus.dropbox", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws {
        self.configuration = configuration
        self.paths = try DropboxPathMapper(root: configuration.root)
        let client = try StratusHTTPClient.forService(http, named: "Dropbox")
        self.transport = DropboxTransport(http: client, credentials: credentials, configuration: configuration)
        self.templates = PropertyTemplateRegistry(transport: transport)
        self.logger = logger
        let sender = BatchSender(
            transport: transport, paths: paths, retryPolicy: configuration.retryPolicy, logger: logger)
        self.batches = configuration.commitBatching.map {
            BatchCommitter(settings: $0, maximumAttempts: configuration.retryPolicy.maximumAttempts) {
                await sender.send($0)
            }
        }
    }

    /// Content hash `dropboxContentHash`, atomic conditional writes (`mode update` with
    /// `strict_conflict`), versions, a native change feed waited on with
    /// `list_folder/longpoll` (see ``waitForChanges(after:timeout:)``), case-insensitive paths,
    /// and custom metadata in file properties (see ``upload(from:to:options:)``).
    public var capabilities: ServiceCapabilities {
        ServiceCapabilities(
            hashAlgorithm: .dropboxContentHash,
            largestSingleUpload: configuration.singleUploadLimit,
            chunkSize: configuration.chunkSize,
            conditionalWrites: .atomic,
            supportsVersions: true,
            changeFeed: .native,
            supportsCustomMetadata: true,
            pathRules: DropboxPathMapper.rules,
            changeWaiting: DropboxService.changeWaiting
        )
    }

    /// Describes the file at a path through `files/get_metadata`; a folder is `notFound`.
    public func metadata(of path: RemotePath) async throws -> RemoteFile {
        try await guarded {
            guard !path.isRoot else {
                throw ServiceError(.notFound, "The root is a folder, not a file.")
            }
            try paths.validate(path)
            let route = "files/get_metadata"
            let argument = StoneValue.object(
                [
                    ("path", .string(paths.dropboxPath(path))),
                    ("include_deleted", .bool(false)),
                ] + (try await propertyGroupFilter()))
            let entry = try await transport.rpc(route, argument, as: DropboxMetadata.self)
            guard entry.isFile else {
                throw ServiceError(.notFound, "\(path) is a folder, not a file.")
            }
            return try paths.file(from: entry, route: route, requested: path)
        }
    }

    /// Lists the files below a folder through `files/list_folder` (recursive) and
    /// `files/list_folder/continue`.
    public func list(_ folder: RemotePath) async throws -> [RemoteFile] {
        try await guarded {
            try paths.validate(folder)
            var arguments: [(String, StoneValue)] =
                [
                    ("path", .string(paths.dropboxPath(folder))),
                    ("recursive", .bool(true)),
                    ("include_deleted", .bool(false)),
                ] + (try await propertyGroupFilter())
            if let limit = configuration.pageSize { arguments.append(("limit", .integer(Int64(limit)))) }
            var route = "files/list_folder"
            var page: DropboxListFolderResult
            do {
                page = try await transport.rpc(route, .object(arguments), as: DropboxListFolderResult.self)
            } catch let error as ServiceError where error.code == .notFound && folder.isRoot {
                return []
            }
            var files: [RemoteFile] = []
            while true {
                for entry in page.entries where entry.isFile {
                    files.append(try paths.file(from: entry, route: route, requested: nil))
                }
                guard page.hasMore else { return files }
                route = "files/list_folder/continue"
                page = try await transport.rpc(
                    route, .object([("cursor", .string(page.cursor))]), as: DropboxListFolderResult.self)
            }
        }
    }

    /// Deletes a file through `files/delete_v2`; ``/Stratus/WritePrecondition/mustMatch(_:)``
    /// sends `parent_rev`. Without a version, `files/get_metadata` first makes sure the path
    /// holds a file, so a folder is never deleted.
    ///
    /// After a failure of unknown outcome, a path that no longer holds a file means the delete
    /// went through (see `writeOnce(done:_:)`).
    public func delete(_ path: RemotePath, precondition: WritePrecondition) async throws {
        try await guarded {
            guard !path.isRoot else {
                throw ServiceError(.notFound, "The root is a folder, not a file.")
            }
            try paths.validate(path)
            let route = "files/delete_v2"
            var arguments: [(String, StoneValue)] = [("path", .string(paths.dropboxPath(path)))]
            if case .mustMatch(let version) = precondition, DropboxService.isRevision(version) {
                // Dropbox checks the version itself, and refuses folders.
                arguments.append(("parent_rev", .string(version.rawValue)))
            } else {
                // delete_v2 removes folders recursively; make sure a file is there first (a
                // folder reads as notFound). A version that is no rev cannot match it.
                let current = try await metadata(of: path)
                try precondition.check(current: current.version, at: path, for: .delete)
            }
            do {
                try await writeOnce(done: { try await self.isGone(path) }) { [arguments] in
                    _ = try await transport.rpc(
                        route, .object(arguments), as: DropboxDeleteResult.self, repetition: .never)
                }
            } catch let error as ServiceError where error.code == .notFound {
                // With parent_rev, a revision that is no longer current reads as not_found.
                if case .mustMatch = precondition, (try? await metadata(of: path)) != nil {
                    throw ServiceError(
                        .conflict, "\(path) is no longer at the version given; nothing was deleted.",
                        httpStatus: error.httpStatus, providerError: error.providerError)
                }
                throw error
            }
        }
    }

    /// The versions of a file through `files/list_revisions` (mode `path`, 100 a page, paging
    /// with `before_rev`), newest first.
    public func versions(of path: RemotePath) async throws -> [FileVersion] {
        try await guarded {
            guard !path.isRoot else {
                throw ServiceError(.notFound, "The root is a folder, not a file.")
            }
            try paths.validate(path)
            let route = "files/list_revisions"
            var versions: [FileVersion] = []
            var before: String?
            while true {
                var arguments: [(String, StoneValue)] = [
                    ("path", .string(paths.dropboxPath(path))),
                    ("mode", .string("path")),
                    ("limit", .integer(100)),
                ]
                if let before { arguments.append(("before_rev", .string(before))) }
                let page = try await transport.rpc(route, .object(arguments), as: DropboxRevisionsResult.self)
                for entry in page.entries {
                    let file = try paths.file(from: entry, route: route, requested: path)
                    versions.append(
                        FileVersion(
                            id: file.version, size: file.size, modified: file.modified, contentHash: file.contentHash))
                }
                guard page.hasMore, let last = page.entries.last?.rev, last != before else { break }
                before = last
            }
            guard !versions.isEmpty else {
                throw ServiceError(.notFound, "Dropbox keeps no version of \(path).")
            }
            return versions
        }
    }

    /// Makes an old version current again through `files/restore`.
    public func restore(_ path: RemotePath, to version: VersionID) async throws -> RemoteFile {
        try await guarded {
            try paths.validate(path)
            guard DropboxService.isRevision(version) else {
                throw ServiceError(.notFound, "\(version) is not a Dropbox revision of \(path).")
            }
            let route = "files/restore"
            let argument = StoneValue.object([
                ("path", .string(paths.dropboxPath(path))),
                ("rev", .string(version.rawValue)),
            ])
            // A restore makes a new revision, so one whose answer was lost is looked for
            // before it is sent again: the file then holds the old revision's content.
            return try await writeOnce(done: { try await self.holdsRevision(path, version) }) {
                let entry = try await transport.rpc(route, argument, as: DropboxMetadata.self, repetition: .never)
                return try paths.file(from: entry, route: route, requested: path)
            }
        }
    }

    /// `()` when no file is at a path any more.
    private func isGone(_ path: RemotePath) async throws -> Void? {
        try await metadataIfPresent(of: path) == nil ? () : nil
    }

    /// The file, when it holds the content of one of its revisions.
    private func holdsRevision(_ path: RemotePath, _ version: VersionID) async throws -> RemoteFile? {
        let target = try await versions(of: path).first { $0.id == version }
        guard let hash = target?.contentHash?.value else { return nil }
        return try await holds(path, contentHash: hash)
    }

    // MARK: Helpers

    /// The `include_property_groups` member that asks for the adapter's metadata, or nothing
    /// when the account has no such template yet.
    func propertyGroupFilter() async throws -> [(String, StoneValue)] {
        let ids = try await templates.readIDs()
        guard !ids.isEmpty else { return [] }
        return [("include_property_groups", .union("filter_some", .array(ids.map { .string($0) })))]
    }

    /// Whether a version could be a Dropbox `rev` (lowercase hex, at least 9 digits); others
    /// are never sent, as Dropbox refuses them as bad input.
    static func isRevision(_ version: VersionID) -> Bool {
        let text = version.rawValue
        return text.utf8.count >= 9 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Runs a call so that it throws ``/Stratus/ServiceError`` only.
    func guarded<Result: Sendable>(function: String = #function, _ body: () async throws -> Result)
        async throws -> Result
    {
        try await ServiceError.guarding("Dropbox", function: function, body)
    }
}
