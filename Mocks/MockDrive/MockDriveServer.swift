import Foundation
import Hummingbird
import MockOAuth
import MockSupport

/// A mock of the Google Drive API v3 (the `files`, `changes` and `revisions` methods a sync
/// client needs) speaking the real wire protocol: JSON resources with `fields` partial
/// responses, media, multipart and resumable uploads, `alt=media` downloads with `Range`, and
/// Google-shaped errors (``DriveErrorBody``).
///
/// ```swift
/// let auth = MockAuthorizationServer(configuration: .init(flavor: .google))
/// let drive = try MockDriveServer(storageDirectory: folder, authorization: auth)
/// let router = Router()
/// drive.addRoutes(to: router)
/// try await MockServer.withRunning(router) { baseURL in
///     // GET baseURL/drive/v3/files with a token from auth.issueTokens()
/// }
/// ```
///
/// The API (`/drive/v3/...`), the upload endpoint (`/upload/drive/v3/files`) and the
/// authorization server's routes (`/token`, ...) share one base URL. File contents live on
/// disk in a content-addressed blob store under `storageDirectory`; metadata, revisions and
/// the change log live in memory, and with `persistence: .saved()` are also saved to
/// `drive-state.json` there and loaded by the next server on that folder, so ids and page
/// tokens issued before a restart go on working (resumable upload sessions do not survive
/// one; see ``saveState()`` and ``PersistentState`` for what a hard kill loses). Safe to use
/// from any number of tasks at once.
public final class MockDriveServer: Sendable {
    /// Limits and behaviour.
    public struct Options: Sendable {
        /// The largest content accepted for one file, in bytes, by any upload type.
        public var maxUploadBytes: Int64
        /// The storage quota `about.get` reports, in bytes; `nil` for unlimited.
        public var storageQuotaLimit: Int64?
        /// The largest page `files.list`, `changes.list` and `revisions.list` answer; larger
        /// `pageSize` values are lowered to it, as Drive lowers them to 1000.
        public var maximumPageSize: Int
        /// The scheme of the URLs the mock hands out (resumable session URIs): `https` when it
        /// is served over TLS (the server cannot tell from an HTTP/1.1 request).
        public var scheme: String

        /// Creates options.
        /// - Parameters:
        ///   - maxUploadBytes: The largest content of one file (default 5 GiB).
        ///   - maximumPageSize: The largest page (default 1000, like Drive).
        ///   - storageQuotaLimit: The quota `about.get` reports (default 15 GiB, a free account's).
        ///   - scheme: `http`, or `https` when the mock is served over TLS.
        public init(
            maxUploadBytes: Int64 = 5 * 1024 * 1024 * 1024,
            maximumPageSize: Int = 1000,
            storageQuotaLimit: Int64? = 15 * 1024 * 1024 * 1024,
            scheme: String = "http"
        ) {
            self.scheme = scheme
            self.maxUploadBytes = maxUploadBytes
            self.maximumPageSize = max(1, maximumPageSize)
            self.storageQuotaLimit = storageQuotaLimit
        }
    }

    /// The authorization server whose tokens are accepted.
    public let authorization: MockAuthorizationServer
    /// Every request the Drive routes answered, secrets redacted.
    public let requestLog: RequestLog
    /// The options.
    public let options: Options
    /// The fault rules: add one to make the mock fail the way Drive can (see ``FaultRule``);
    /// also reachable over HTTP on `/__stratus/faults`.
    public let faults: FaultInjector
    let blobs: BlobStore
    let store: DriveStore
    let uploads: ResumableSessions
    /// The saved state, when the server was asked to save it (`persistence: .saved()`).
    public let persistence: PersistentState?

    /// Creates a server with an empty My Drive and application data folder, or with the ones
    /// saved in `storageDirectory`.
    /// - Parameters:
    ///   - storageDirectory: Where blobs and upload sessions are written; created if needed.
    ///   - authorization: The authorization server whose access tokens are accepted; its
    ///     routes are mounted beside the Drive routes.
    ///   - options: Limits and behaviour.
    ///   - requestLog: Where requests are recorded.
    ///   - persistence: Whether files, revisions and the change log are also saved in
    ///     `storageDirectory` and loaded from it (in memory only by default).
    /// - Throws: An error when the storage folders cannot be created; ``PersistentStateError``
    ///   when a saved state exists but cannot be used.
    public init(
        storageDirectory: URL,
        authorization: MockAuthorizationServer,
        options: Options = Options(),
        requestLog: RequestLog = RequestLog(),
        persistence: StatePersistence = .inMemory
    ) throws {
        self.authorization = authorization
        self.options = options
        self.requestLog = requestLog
        self.faults = FaultInjector(hooks: DriveFaultAnswers.hooks(authorization: authorization))
        self.blobs = try BlobStore(root: storageDirectory)
        self.uploads = ResumableSessions(directory: blobs.scratchDirectory)
        let restored = try Self.restoreState(in: storageDirectory, blobs: blobs, choice: persistence)
        self.store = restored.0
        self.persistence = restored.1
    }

    /// Ends every resumable upload session, as Drive does after about a week: later requests
    /// to their URIs answer 404 and the client must start again.
    public func expireUploadSessions() {
        uploads.discardAll()
    }

    /// The id of the My Drive root folder (alias `root`).
    public var rootFolderID: String { store.withState { $0.rootID } }

    /// The id of the application data folder (alias `appDataFolder`).
    public var appDataFolderID: String { store.withState { $0.appDataID } }

    /// Mounts the Drive routes and the authorization server's routes on a router:
    ///
    /// - `POST|GET /drive/v3/files`, `GET|PATCH|DELETE /drive/v3/files/{fileId}`,
    ///   `GET /drive/v3/files/generateIds`, `POST /drive/v3/files/{fileId}/copy`
    /// - `POST /upload/drive/v3/files`, `PATCH /upload/drive/v3/files/{fileId}` (`uploadType`
    ///   `media`, `multipart`, `resumable`), `PUT` on both for resumable chunks; the same under
    ///   `/resumable/upload/drive/v3/files`
    /// - `GET /drive/v3/about` (`fields` required, as on Drive)
    /// - `GET /drive/v3/changes/startPageToken`, `GET /drive/v3/changes`
    /// - `GET /drive/v3/files/{fileId}/revisions`, `GET|PATCH|DELETE .../revisions/{revisionId}`
    /// - the fault control routes (`/__stratus/...`, see ``FaultControlRoutes``)
    ///
    /// Every route sits behind the request log and fault injection. Call it on a fresh router:
    /// the log and the faults apply to routes added after them.
    /// - Parameter router: The router.
    public func addRoutes(to router: Router<BasicRequestContext>) {
        router.addMockInfrastructure(requestLog: requestLog, faults: faults)
        authorization.addRoutes(to: router)
        typealias Handler = @Sendable (inout Request, BasicRequestContext) async throws -> Response
        func mount(_ method: HTTPRequest.Method, _ path: String, _ handler: @escaping Handler) {
            router.on(RouterPath(path), method: method) { request, context in
                var request = request
                return try await DriveFailure.answer {
                    try self.authorize(request)
                    return try await handler(&request, context)
                }
            }
        }
        mount(.post, "/drive/v3/files") { request, _ in try await self.createMetadataOnly(&request) }
        mount(.get, "/drive/v3/files") { request, _ in try self.listFiles(request) }
        mount(.get, "/drive/v3/files/generateIds") { request, _ in try self.generateIDs(request) }
        mount(.get, "/drive/v3/files/{fileId}") { request, context in try self.getFile(request, id: context.fileID) }
        mount(.patch, "/drive/v3/files/{fileId}") { request, context in
            try await self.updateMetadataOnly(&request, id: context.fileID)
        }
        mount(.delete, "/drive/v3/files/{fileId}") { _, context in try self.deleteFile(id: context.fileID) }
        mount(.post, "/drive/v3/files/{fileId}/copy") { request, context in
            try await self.copyFile(&request, id: context.fileID)
        }
        mount(.post, "/upload/drive/v3/files") { request, _ in try await self.upload(&request, fileID: nil) }
        mount(.patch, "/upload/drive/v3/files/{fileId}") { request, context in
            try await self.upload(&request, fileID: context.fileID)
        }
        mount(.put, "/upload/drive/v3/files") { request, _ in try await self.resumableChunk(&request) }
        mount(.put, "/upload/drive/v3/files/{fileId}") { request, _ in try await self.resumableChunk(&request) }
        mount(.post, "/upload/drive/v3/files/{fileId}") { request, _ in try await self.resumableChunk(&request) }
        // The discovery document's separate resumable path answers the same way.
        mount(.post, "/resumable/upload/drive/v3/files") { request, _ in try await self.upload(&request, fileID: nil) }
        mount(.patch, "/resumable/upload/drive/v3/files/{fileId}") { request, context in
            try await self.upload(&request, fileID: context.fileID)
        }
        mount(.put, "/resumable/upload/drive/v3/files") { request, _ in try await self.resumableChunk(&request) }
        mount(.put, "/resumable/upload/drive/v3/files/{fileId}") { request, _ in try await self.resumableChunk(&request)
        }
        mount(.get, "/drive/v3/about") { request, _ in try self.about(request) }
        mount(.get, "/drive/v3/changes/startPageToken") { request, _ in try self.startPageToken(request) }
        mount(.get, "/drive/v3/changes") { request, _ in try self.listChanges(request) }
        mount(.get, "/drive/v3/files/{fileId}/revisions") { request, context in
            try self.listRevisions(request, fileID: context.fileID)
        }
        mount(.get, "/drive/v3/files/{fileId}/revisions/{revisionId}") { request, context in
            try self.getRevision(request, fileID: context.fileID, revisionID: context.revisionID)
        }
        mount(.patch, "/drive/v3/files/{fileId}/revisions/{revisionId}") { request, context in
            try await self.updateRevision(&request, fileID: context.fileID, revisionID: context.revisionID)
        }
        mount(.delete, "/drive/v3/files/{fileId}/revisions/{revisionId}") { _, context in
            try self.deleteRevision(fileID: context.fileID, revisionID: context.revisionID)
        }
    }

    /// Checks the bearer token (the `Authorization` header, or the `access_token` /
    /// `oauth_token` query parameter).
    /// - Throws: ``DriveFailure``: 401 `required` without a token, 401 `authError` for an
    ///   expired or unknown one, 403 `insufficientPermissions` without a Drive scope.
    func authorize(_ request: Request) throws(DriveFailure) {
        var token: String?
        if let header = request.headers[.authorization] {
            let parts = header.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "bearer" else { throw DriveFailure(.invalidCredentials()) }
            token = parts[1].trimmingOptionalWhiteSpace
        } else {
            let query = DriveQueryParameters(request)
            token = query.fields["access_token"] ?? query.fields["oauth_token"]
        }
        guard let token, !token.isEmpty else { throw DriveFailure(.loginRequired()) }
        switch authorization.validate(accessToken: token) {
        case .valid(let scopes):
            guard scopes.contains(where: { $0.hasPrefix("https://www.googleapis.com/auth/drive") }) else {
                throw DriveFailure(.insufficientScopes())
            }
        case .expired, .invalid:
            throw DriveFailure(.invalidCredentials())
        }
    }
}

extension BasicRequestContext {
    /// The `{fileId}` path parameter.
    var fileID: String { parameters.get("fileId") ?? "" }
    /// The `{revisionId}` path parameter.
    var revisionID: String { parameters.get("revisionId") ?? "" }
}
