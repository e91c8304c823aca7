import Foundation
public import Logging
public import Stratus
import StratusAdapterKit
import StratusDigest
public import StratusHTTP
import Synchronization

/// A ``/Stratus/Service`` over an S3 bucket (AWS or any S3-compatible server), rooted at a key
/// prefix.
///
/// Folders are key prefixes. Every object the adapter writes carries the SHA-256 of its whole
/// content in `x-amz-meta-stratus-sha256`, which is the ``/Stratus/RemoteFile/contentHash`` and
/// what downloads are checked against. Keys below `<root>/.stratus/` are the adapter's own and
/// are neither listed nor accepted as paths.
///
/// ```swift
/// let service = try S3Service(
///     configuration: S3Configuration(endpoint: URL(string: "http://127.0.0.1:9000"),
///                                    bucket: "saves", root: "game"),
///     credentials: try S3Credentials.resolve()
/// )
/// ```
public final class S3Service: Service {
    /// The configuration in use.
    public let configuration: S3Configuration
    let transport: S3Transport
    let logger: Logger
    /// Whether the bucket's versioning has been checked (and enabled, when asked) already.
    private let versioningChecked = Mutex(false)
    /// What the server honours, once measured (``S3Configuration/ConditionalWriteMode/detect``).
    let conditionDetection = S3ConditionDetection()
    /// Whether an upload has read its object back and found the metadata it sent (the
    /// SHA-256 above all) kept; until then every upload reads its object back.
    let metadataKept = Mutex(false)
    /// The folder checks uploads running at the same time share.
    let folderChecks = S3FolderCheckSharing()

    /// The reserved folder below the root.
    static let reservedFolder = ".stratus"

    /// Creates a service.
    /// - Parameters:
    ///   - configuration: Endpoint, bucket, root and sizes.
    ///   - credentials: The key that signs requests.
    ///   - http: The HTTP client to use; a new one by default.
    ///   - logger: Where to log; no secret is logged.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidConfiguration`` when no HTTP client can be
    ///   made.
    public init(
        configuration: S3Configuration,
        credentials: S3Credentials,
        http: StratusHTTPClient? = nil,
        logger: Logger = Logger(label: "stratus.s3", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws {
        self.configuration = configuration
        self.transport = S3Transport(
            http: try StratusHTTPClient.forService(http, named: "S3"),
            signer: SigV4Signer(credentials: credentials, region: configuration.region),
            configuration: configuration
        )
        self.logger = logger
    }

    /// SHA-256 content hashes, custom metadata, case-sensitive keys of up to 1024 bytes;
    /// versions and an emulated change feed when the bucket keeps versions, waited on by polling
    /// it on ``S3Configuration/pollingSchedule`` (S3 has no change notification a client can
    /// hold).
    ///
    /// Conditional writes are `atomic` where the server checks `If-None-Match: *` and `If-Match`
    /// in the write itself and `bestEffort` where it does not (see ``S3ConditionSupport``):
    /// under ``S3Configuration/ConditionalWriteMode/detect`` they are `bestEffort` until the
    /// first conditional write or ``conditionSupport()`` has measured the server.
    public var capabilities: ServiceCapabilities {
        let versioned = configuration.versioning != .off
        let prefixLength = configuration.root.isEmpty ? 0 : configuration.root.utf8.count + 1
        return ServiceCapabilities(
            hashAlgorithm: .sha256,
            largestSingleUpload: configuration.singleUploadLimit,
            chunkSize: configuration.partSize,
            conditionalWrites: declaredConditionalWrites,
            supportsVersions: versioned,
            changeFeed: versioned ? .emulated : .unavailable,
            supportsCustomMetadata: true,
            pathRules: PathRules(isCaseSensitive: true, maximumPathLength: 1024 - prefixLength),
            changeWaiting: versioned ? .polling(configuration.pollingSchedule) : .unavailable
        )
    }

    /// The conditional writes the capabilities declare: as configured, or as measured (and
    /// `bestEffort` until measured).
    var declaredConditionalWrites: ServiceCapabilities.ConditionalWrites {
        switch configuration.conditionalWrites {
        case .atomic: .atomic
        case .bestEffort: .bestEffort
        case .detect: conditionDetection.known?.conditionalWrites ?? .bestEffort
        }
    }

    // MARK: Keys

    /// The object key of a path.
    func key(for path: RemotePath) -> String {
        if configuration.root.isEmpty { return path.string }
        return path.isRoot ? configuration.root : configuration.root + "/" + path.string
    }

    /// The key prefix of a folder, ending in `/` (empty for the root of a bucket).
    func prefix(for folder: RemotePath) -> String {
        let key = key(for: folder)
        return key.isEmpty ? "" : key + "/"
    }

    /// The key of one of the adapter's own objects.
    func reservedKey(_ name: String) -> String {
        prefix(for: .root) + S3Service.reservedFolder + "/" + name
    }

    /// The path of a key below the root, or `nil` for a key outside it, a reserved key, or one
    /// that is not a valid path.
    func path(forKey key: String) -> RemotePath? {
        let rootPrefix = prefix(for: .root)
        guard key.hasPrefix(rootPrefix) else { return nil }
        let relative = String(key.dropFirst(rootPrefix.count))
        guard !relative.isEmpty, let path = try? RemotePath(relative), !path.isRoot,
            path.components.first != S3Service.reservedFolder
        else { return nil }
        return path
    }

    /// Checks a path against the service's rules and the reserved folder.
    func validate(_ path: RemotePath) throws {
        try capabilities.pathRules.validate(path)
        if path.components.first == S3Service.reservedFolder {
            throw ServiceError(
                .invalidPath, "Paths below \(S3Service.reservedFolder)/ are reserved for the S3 adapter's own records.")
        }
    }

    /// Checks a path that must name a file.
    func validateFile(_ path: RemotePath) throws {
        guard !path.isRoot else { throw ServiceError(.notFound, "The root is a folder, not a file.") }
        try validate(path)
    }

    // MARK: Metadata

    /// Describes the file at a path through `HeadObject`.
    public func metadata(of path: RemotePath) async throws -> RemoteFile {
        try await guarded {
            try validateFile(path)
            return try await head(path, version: nil)
        }
    }

    /// `HeadObject` of a path (or one version of it) as a file.
    func head(_ path: RemotePath, version: String?) async throws -> RemoteFile {
        try file(path, from: try await headDescription(path, version: version))
    }

    /// `HeadObject` of a path (or one version of it).
    func headDescription(_ path: RemotePath, version: String?) async throws -> S3ObjectDescription {
        let action = "HeadObject of \(path)"
        var request = S3Transport.Request(method: .head, key: key(for: path), action: action)
        if let version { request.query = [("versionId", version)] }
        do {
            let response = try await transport.send(request, repetition: .safe)
            return try S3ObjectDescription(headers: response.headers, action: action)
        } catch let error as ServiceError where error.httpStatus == 405 || (error.httpStatus == 400 && version != nil) {
            // A version id that is a delete marker (405) or not a version id at all (400).
            throw ServiceError(.notFound, "\(path) has no version \(version ?? "")", httpStatus: error.httpStatus)
        } catch let error as ServiceError where error.code == .notFound {
            throw ServiceError(
                .notFound, "No file at \(path)\(version.map { " with version \($0)" } ?? "").",
                httpStatus: error.httpStatus, providerError: error.providerError)
        }
    }

    /// A ``/Stratus/RemoteFile`` from an object description.
    func file(_ path: RemotePath, from description: S3ObjectDescription) throws -> RemoteFile {
        RemoteFile(
            path: path,
            id: key(for: path),
            size: description.size,
            modified: description.modified,
            contentHash: description.sha256.map { ContentHash(algorithm: .sha256, value: $0) },
            version: try version(of: description),
            metadata: description.metadata
        )
    }

    /// The version id of a description: S3's version id when the bucket keeps versions (`null`
    /// for an object written before versioning was turned on), else the ETag.
    func version(of description: S3ObjectDescription) throws -> VersionID {
        if configuration.versioning == .off { return VersionID(description.etag) }
        guard let id = description.versionID, !id.isEmpty else { return VersionID("null") }
        return VersionID(id)
    }

    // MARK: Listing

    /// Lists the files below a folder through `ListObjectsV2`, then `HeadObject` for each (S3
    /// listings carry neither custom metadata nor the content hash): one request per file.
    public func list(_ folder: RemotePath) async throws -> [RemoteFile] {
        try await guarded {
            try validate(folder)
            let keys = try await listKeys(prefix: prefix(for: folder))
            let paths = keys.compactMap { path(forKey: $0) }
            if paths.isEmpty && !folder.isRoot {
                throw ServiceError(.notFound, "No folder \(folder): no file is below it.")
            }
            return try await describeAll(paths)
        }
    }

    /// Every key below a prefix (`ListObjectsV2`, 1000 a page).
    func listKeys(prefix: String, limit: Int? = nil) async throws -> [String] {
        var keys: [String] = []
        var continuation: String?
        repeat {
            var query = [("list-type", "2"), ("prefix", prefix)]
            if let limit { query.append(("max-keys", String(limit))) }
            if let continuation { query.append(("continuation-token", continuation)) }
            let document = try await transport.sendXML(
                S3Transport.Request(
                    method: .get, key: nil, query: query,
                    action: "ListObjectsV2 of \(prefix.isEmpty ? "the bucket" : prefix)"),
                repetition: .safe
            )
            keys += document.children("Contents").compactMap { $0.value("Key") }
            if let limit, keys.count >= limit { return keys }
            continuation = document.value("IsTruncated") == "true" ? document.value("NextContinuationToken") : nil
        } while continuation != nil
        return keys
    }

    /// Heads many paths, eight at a time; a file deleted meanwhile is left out.
    private func describeAll(_ paths: [RemotePath]) async throws -> [RemoteFile] {
        try await withThrowingTaskGroup(of: RemoteFile?.self) { group in
            var files: [RemoteFile] = []
            var next = 0
            func addNext() {
                guard next < paths.count else { return }
                let path = paths[next]
                next += 1
                group.addTask {
                    try await ServiceError.nilIfNotFound { try await self.head(path, version: nil) }
                }
            }
            for _ in 0..<8 { addNext() }
            while let file = try await group.next() {
                if let file { files.append(file) }
                addNext()
            }
            return files
        }
    }

    // MARK: Delete

    /// Deletes a file through `DeleteObject` (a delete marker when the bucket keeps versions).
    /// `HeadObject` first makes sure a file is there; ``/Stratus/WritePrecondition/mustMatch(_:)``
    /// compares the version and then sends `If-Match` with that version's ETag where the server
    /// honours it there (``S3ConditionSupport/deleteIfMatch``). Where it does not (Ceph), on a
    /// versioned bucket the version just below the new delete marker must be the one compared,
    /// or the marker is deleted again and the call throws
    /// ``/Stratus/ServiceError/Code/conflict``; on an unversioned bucket a writer can slip in
    /// between the `HeadObject` and the `DeleteObject`.
    public func delete(_ path: RemotePath, precondition: WritePrecondition) async throws {
        try await guarded {
            try validateFile(path)
            try await ensureVersioning()
            let current = try await headDescription(path, version: nil)
            try precondition.check(current: try version(of: current), at: path, for: .delete)
            var request = S3Transport.Request(method: .delete, key: key(for: path), action: "DeleteObject of \(path)")
            var checkedByServer = false
            if case .mustMatch = precondition,
                let value = try await resolvedConditionSupport().deleteIfMatch(current.etag)
            {
                request.headers.append(("If-Match", value))
                checkedByServer = true
            }
            let response: StratusHTTPResponse
            do {
                response = try await transport.send(request, repetition: .onlyWhenRefused)
            } catch let error as ServiceError where error.code == .notFound && precondition != .none {
                throw ServiceError(
                    .conflict, "\(path) changed before it could be deleted; nothing was deleted.",
                    httpStatus: error.httpStatus, providerError: error.providerError)
            }
            if case .mustMatch = precondition, !checkedByServer, configuration.versioning != .off,
                let marker = response.headers["x-amz-version-id"], !marker.isEmpty
            {
                try await confirmDeletion(of: path, marker: marker, expected: current.versionID ?? "null")
            }
        }
    }

    /// Checks that the version just below a delete marker is the one the precondition compared;
    /// when another is, deletes the marker again (which makes that version current again) and
    /// throws `conflict`.
    func confirmDeletion(of path: RemotePath, marker: String, expected: String) async throws {
        let key = key(for: path)
        let entries = try await listVersions(prefix: key, stopAfterKey: key).filter { $0.key == key }
        guard let index = entries.firstIndex(where: { $0.versionID == marker }) else {
            logger.warning(
                "The delete marker is not in the version listing; the deletion cannot be checked",
                metadata: ["path": "\(path)", "marker": "\(marker)"])
            return
        }
        // S3 lists a key's versions and markers newest first, so the entry after the marker is
        // what was current when it was made.
        guard entries.index(after: index) < entries.endIndex else {
            logger.warning(
                "Nothing is listed below the delete marker; the deletion cannot be checked",
                metadata: ["path": "\(path)", "marker": "\(marker)"])
            return
        }
        let below = entries[entries.index(after: index)]
        guard below.versionID != expected else { return }
        _ = try await transport.send(
            S3Transport.Request(
                method: .delete, key: key, query: [("versionId", marker)],
                action: "DeleteObject of the delete marker of \(path) that lost a race"),
            repetition: .safe
        )
        throw ServiceError(
            .conflict,
            "\(path) changed before it could be deleted (\(below.isDeleteMarker ? "another delete marker" : "version \(below.versionID)") came in between); the delete marker was removed again, so nothing was deleted."
        )
    }

    // MARK: Buckets

    /// Creates the configured bucket (`CreateBucket`, in the configured region); a bucket this
    /// account owns already is fine.
    /// - Throws: ``/Stratus/ServiceError`` when the bucket cannot be created, such as
    ///   `BucketAlreadyExists` when another account owns the name.
    public func createBucket() async throws {
        try await guarded {
            var request = S3Transport.Request(
                method: .put, key: nil, action: "CreateBucket of \(configuration.bucket)")
            if configuration.region != "us-east-1" {
                let body = Data(
                    "<CreateBucketConfiguration xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><LocationConstraint>\(configuration.region)</LocationConstraint></CreateBucketConfiguration>"
                        .utf8)
                request.headers = [("Content-Type", "application/xml")]
                request.body = .bytes(body)
                request.payloadHash = Hex.encode(Digest.sha256(body))
            }
            do {
                _ = try await transport.send(request, repetition: .safe)
            } catch let error as ServiceError where error.providerError == "BucketAlreadyOwnedByYou" {
                return
            }
        }
    }

    // MARK: Versioning

    /// Checks once that the bucket keeps versions, turning versioning on when configured to.
    func ensureVersioning() async throws {
        guard configuration.versioning != .off, !versioningChecked.withLock({ $0 }) else { return }
        let document = try await transport.sendXML(
            S3Transport.Request(
                method: .get, key: nil, query: [("versioning", "")],
                action: "GetBucketVersioning of \(configuration.bucket)"),
            repetition: .safe
        )
        if document.value("Status") != "Enabled" {
            guard configuration.versioning == .enable else {
                throw ServiceError(
                    .unsupported,
                    "Versioning is not on for the bucket \(configuration.bucket), so versions, restore and the change feed are unavailable. Turn it on, or set the remote's option versioning to 'enable' (the adapter turns it on) or 'off'."
                )
            }
            let body = Data(
                "<VersioningConfiguration xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Status>Enabled</Status></VersioningConfiguration>"
                    .utf8)
            _ = try await transport.send(
                S3Transport.Request(
                    method: .put, key: nil, query: [("versioning", "")],
                    headers: [
                        ("Content-MD5", Data(Digest.md5(body)).base64EncodedString()),
                        ("Content-Type", "application/xml"),
                    ],
                    body: .bytes(body), payloadHash: Hex.encode(Digest.sha256(body)),
                    action: "PutBucketVersioning of \(configuration.bucket)"
                ),
                repetition: .safe
            )
        }
        versioningChecked.withLock { $0 = true }
    }

    /// Throws `unsupported` when the bucket keeps no versions.
    func requireVersions() throws {
        guard configuration.versioning != .off else {
            throw ServiceError(
                .unsupported,
                "The remote is configured without versioning (versioning = off); versions, restore and the change feed are unavailable."
            )
        }
    }

    // MARK: Errors

    /// Runs a call so that it throws ``/Stratus/ServiceError`` only.
    func guarded<Result: Sendable>(function: String = #function, _ body: () async throws -> Result)
        async throws -> Result
    {
        try await ServiceError.guarding("S3", function: function, body)
    }
}
