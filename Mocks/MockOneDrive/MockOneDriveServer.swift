import Foundation
import Hummingbird
import HummingbirdTLS
import MockOAuth
import MockSupport
import StratusDigest
import Synchronization

/// A mock of Microsoft Graph's OneDrive API (`/v1.0/me/drive/...` and `/v1.0/drives/{id}/...`)
/// speaking the real wire protocol: driveItem resources with `$select`, items by id and by path
/// (`root:/a/b.txt:`, `items/{id}:/name:`, `special/approot`), children with
/// `@odata.nextLink` paging, simple `PUT /content` uploads and upload sessions, `/content`
/// answering 302 to a pre-authenticated URL, `delta`, versions, and Graph's error bodies.
///
/// Graph hands out two kinds of URL that live on other hosts: download URLs and upload session
/// URLs. The mock serves them on a second server, the *content host*, which ignores a bearer
/// token sent there, as Graph does (``Options/strictClient`` makes it answer 401 instead, to catch
/// a client that leaks its token). `OneDriveMockProvider`
/// (in `MockProviders`) runs both; to mount them yourself, put ``addRoutes(to:)`` on one router
/// and ``addContentRoutes(to:)`` on another, and tell the mock where the content host listens
/// with ``setContentBaseURL(_:)``.
///
/// File contents live on disk in a content-addressed blob store under `storageDirectory`;
/// metadata, versions and the change log live in memory. Every request is O(log n) or better in
/// the number of items (dictionaries by id and name, sorted name arrays for paging, a change
/// log read from a position). Safe to use from any number of tasks at once.
public final class MockOneDriveServer: Sendable {
    /// Limits and behaviour.
    public struct Options: Sendable {
        /// The largest body a simple `PUT /content` takes (Graph: 250 MB); larger answers 413.
        public var simpleUploadLimit: Int64
        /// The largest file an upload session takes.
        public var maxUploadBytes: Int64
        /// The drive's size; writes past it answer 507 `quotaLimitReached`. `nil` for unlimited.
        public var quotaBytes: Int64?
        /// The page size of `children` and `delta` when the request names no `$top`.
        public var defaultPageSize: Int
        /// The largest page; a larger `$top` is lowered to it.
        public var maximumPageSize: Int
        /// How long an upload session lives after its last fragment.
        public var uploadSessionLifetime: Duration
        /// Whether an item's eTag changes once more after each upload (as the service's
        /// post-processing does): the eTag in the upload's answer is stale by the next request,
        /// so `If-Match` with it answers 412 while the cTag still matches.
        public var eTagDriftAfterUpload: Bool
        /// The name of the app folder, `/Apps/<name>` (`special/approot`).
        public var appFolderName: String
        /// The scheme of the links the Graph host writes (`@odata.nextLink`, `deltaLink`):
        /// `https` when served over TLS.
        public var scheme: String
        /// The host name written in download and upload URLs instead of the content host's
        /// listening address, if any (a client reaching Graph as `localhost` then sees those
        /// URLs on another host, `127.0.0.1`, as it would see Graph's on other domains).
        public var contentHostName: String?
        /// Whether the mock is stricter than Graph with a client's own mistakes, for tests of a
        /// client (Stratus's own turn it on): a bearer token sent to a pre-authenticated URL
        /// (download, upload session, copy monitor) answers 401, and an upload fragment other
        /// than the last that is not a multiple of 320 KiB answers 400 `invalidRange`. Graph
        /// ignores the token and takes such fragments (its documentation only warns that they
        /// "may result in errors committing"), so both are accepted when it is off (the
        /// default).
        public var strictClient: Bool

        /// Creates options.
        /// - Parameters:
        ///   - simpleUploadLimit: The largest simple upload (default 250 MiB).
        ///   - maxUploadBytes: The largest file (default 250 GiB, Graph's).
        ///   - quotaBytes: The drive's size (default 5 GiB, a free account's).
        ///   - defaultPageSize: The page size without `$top` (default 200).
        ///   - maximumPageSize: The largest page (default 1000).
        ///   - uploadSessionLifetime: How long an idle session lives (default 2 days).
        ///   - eTagDriftAfterUpload: Whether eTags change once more after an upload (off).
        ///   - appFolderName: The app folder's name (default `Stratus`).
        ///   - scheme: `http`, or `https` when served over TLS.
        ///   - contentHostName: The host name of download and upload URLs, if not the content
        ///     host's address.
        ///   - strictClient: Whether a client's bearer token on pre-authenticated URLs and
        ///     fragments off the 320 KiB grid are refused (off: accepted, as Graph does).
        public init(
            simpleUploadLimit: Int64 = 250 * 1024 * 1024,
            maxUploadBytes: Int64 = 250 * 1024 * 1024 * 1024,
            quotaBytes: Int64? = 5 * 1024 * 1024 * 1024,
            defaultPageSize: Int = 200,
            maximumPageSize: Int = 1000,
            uploadSessionLifetime: Duration = .seconds(2 * 24 * 3600),
            eTagDriftAfterUpload: Bool = false,
            appFolderName: String = "Stratus",
            scheme: String = "http",
            contentHostName: String? = nil,
            strictClient: Bool = false
        ) {
            self.simpleUploadLimit = simpleUploadLimit
            self.maxUploadBytes = maxUploadBytes
            self.quotaBytes = quotaBytes
            self.defaultPageSize = max(1, defaultPageSize)
            self.maximumPageSize = max(1, maximumPageSize)
            self.uploadSessionLifetime = uploadSessionLifetime
            self.eTagDriftAfterUpload = eTagDriftAfterUpload
            self.appFolderName = appFolderName
            self.scheme = scheme
            self.contentHostName = contentHostName
            self.strictClient = strictClient
        }
    }

    /// The authorization server whose tokens are accepted (Microsoft identity platform v2
    /// flavour: `/common/oauth2/v2.0/token`), mounted beside the Graph routes.
    public let authorization: MockAuthorizationServer
    /// Every request either host answered, secrets redacted.
    public let requestLog: RequestLog
    /// The options.
    public let options: Options
    /// The fault rules of both hosts (see ``FaultRule``); also reachable over HTTP on
    /// `/__stratus/faults`.
    public let faults: FaultInjector
    let blobs: BlobStore
    let store: GraphStore
    let sessions = UploadSessions()
    /// The saved state, when the server was asked to save it (`persistence: .saved()`).
    public let persistence: PersistentState?
    private let contentBase = Mutex<String?>(nil)
    /// Finished copies by monitor id: the new item's id.
    let copyJobs = Mutex<[String: String]>([:])
    /// The secret that signs download URLs.
    let signingKey = RandomText.make(bytes: 24)

    /// Creates a server with an empty drive.
    /// - Parameters:
    ///   - storageDirectory: Where blobs and upload sessions are written; created if needed.
    ///   - authorization: The authorization server whose access tokens are accepted; by default
    ///     a Microsoft-flavoured one that replaces the refresh token on every use.
    ///   - options: Limits and behaviour.
    ///   - requestLog: Where requests are recorded.
    ///   - persistence: Whether items, versions and the change log are also saved in
    ///     `storageDirectory` (`onedrive-state.json`) and loaded from it (in memory only by
    ///     default).
    /// - Throws: An error when the storage folders cannot be created; ``PersistentStateError``
    ///   when a saved state exists but cannot be used.
    public init(
        storageDirectory: URL,
        authorization: MockAuthorizationServer = MockAuthorizationServer(
            configuration: .init(flavor: .microsoft, rotatesRefreshTokens: true)),
        options: Options = Options(),
        requestLog: RequestLog = RequestLog(),
        persistence: StatePersistence = .inMemory
    ) throws {
        self.authorization = authorization
        self.options = options
        self.requestLog = requestLog
        self.faults = FaultInjector(hooks: GraphFaultAnswers.hooks(authorization: authorization))
        self.blobs = try BlobStore(root: storageDirectory)
        let restored = try Self.restoreState(
            in: storageDirectory, blobs: blobs, choice: persistence, appFolderName: options.appFolderName)
        self.store = restored.0
        self.persistence = restored.1
    }

    /// The drive's id.
    public var driveID: String { store.read { $0.driveID } }

    /// The root folder's id.
    public var rootFolderID: String { store.read { $0.rootID } }

    /// The app folder's id (`/Apps/<name>`), made if it does not exist yet.
    public var appFolderID: String? { store.read { $0.appRoot()?.id } }

    /// How many upload sessions are open.
    public var openUploadSessions: Int { sessions.count }

    /// Makes every delta token issued so far invalid: using one answers 410 `resyncRequired`
    /// (inner code `resyncChangesApplyDifferences`), as Graph does when a token is too old.
    /// Also on `POST /__stratus/onedrive/expire-delta-tokens`.
    public func expireDeltaTokens() {
        store.read { $0.deltaEpoch += 1 }
    }

    /// Ends every upload session, as their expiry would: their URLs answer 404.
    /// Also on `POST /__stratus/onedrive/expire-upload-sessions`.
    public func expireUploadSessions() {
        sessions.expireAll()
    }

    /// Tells the mock where its content host listens, such as `http://127.0.0.1:49153`;
    /// download and upload URLs are made from it.
    public func setContentBaseURL(_ url: URL) {
        var text = url.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        if let host = options.contentHostName, var components = URLComponents(string: text) {
            components.host = host
            text = components.string ?? text
        }
        contentBase.withLock { $0 = text }
    }

    /// The content host's base URL, once set.
    public var contentBaseURL: URL? { contentBase.withLock { $0 }.flatMap(URL.init(string:)) }

    /// The base of the content host's URLs, or a placeholder that fails loudly.
    var contentBaseText: String { contentBase.withLock { $0 } ?? "http://content-host-not-set.invalid" }

    /// Mounts the Graph routes, the authorization server's routes and the control routes:
    ///
    /// - `GET /v1.0/me/drive` (the drive: id, quota)
    /// - on an item (`.../root`, `.../special/approot`, `.../items/{id}`, each optionally
    ///   followed by `:/path:`), under `/v1.0/me/drive` or `/v1.0/drives/{drive-id}`:
    ///   `GET` (with `$select`), `PATCH` (rename, move, `fileSystemInfo`), `DELETE`,
    ///   `POST /copy` (202 with a monitor URL on the content host), `GET|POST /children`,
    ///   `GET|PUT /content`,
    ///   `POST /createUploadSession`, `GET /delta` (also `delta()` and `delta(token='...')`),
    ///   `GET /versions`, `GET /versions/{id}`, `GET /versions/{id}/content`,
    ///   `POST /versions/{id}/restoreVersion`
    /// - `GET /common/oauth2/v2.0/authorize`, `POST /common/oauth2/v2.0/token`
    /// - `POST /__stratus/onedrive/expire-delta-tokens`, `.../expire-upload-sessions`, and the
    ///   fault control routes (`/__stratus/...`, see ``FaultControlRoutes``)
    ///
    /// Call it on a fresh router: the log and the faults apply to routes added after them.
    public func addRoutes(to router: Router<BasicRequestContext>) {
        router.addMockInfrastructure(requestLog: requestLog, faults: faults)
        authorization.addRoutes(to: router)
        router.post("/__stratus/onedrive/expire-delta-tokens") { request, _ in
            try self.control(request) { self.expireDeltaTokens() }
        }
        router.post("/__stratus/onedrive/expire-upload-sessions") { request, _ in
            try self.control(request) { self.expireUploadSessions() }
        }
        for method in [HTTPRequest.Method.get, .put, .post, .delete, .patch] {
            router.on("/v1.0/**", method: method) { request, _ in
                var request = request
                return try await GraphFailure.answer {
                    try self.authorize(request)
                    return try await self.route(&request)
                }
            }
        }
    }

    /// Mounts the content host's routes: `GET /download/{blob}/{signature}` (with `Range`),
    /// `PUT|GET|DELETE /upload/{session}` and `GET /monitor/{id}` (a copy's status). A bearer
    /// token sent there is ignored, as Graph ignores it, unless ``Options/strictClient``.
    public func addContentRoutes(to router: Router<BasicRequestContext>) {
        router.addMockInfrastructure(requestLog: requestLog, faults: faults)
        router.get("/download/{blob}/{signature}") { request, context in
            try await GraphFailure.answer {
                try self.refuseAuthorization(request)
                return try self.download(
                    request, blob: context.parameters.get("blob") ?? "",
                    signature: context.parameters.get("signature") ?? "")
            }
        }
        router.put("/upload/{session}") { request, context in
            try await GraphFailure.answer {
                try self.refuseAuthorization(request)
                return try await self.receiveFragment(request, session: context.parameters.get("session") ?? "")
            }
        }
        router.get("/upload/{session}") { request, context in
            try await GraphFailure.answer {
                try self.refuseAuthorization(request)
                return try self.sessionStatus(session: context.parameters.get("session") ?? "")
            }
        }
        router.get("/monitor/{id}") { request, context in
            try await GraphFailure.answer {
                try self.refuseAuthorization(request)
                return try self.copyStatus(monitor: context.parameters.get("id") ?? "")
            }
        }
        router.delete("/upload/{session}") { request, context in
            try await GraphFailure.answer {
                try self.refuseAuthorization(request)
                guard self.sessions.remove(context.parameters.get("session") ?? "") else {
                    throw GraphFailure.itemNotFound("The upload session was not found.")
                }
                return Response(status: .noContent)
            }
        }
    }

    /// Checks the bearer token.
    /// - Throws: ``GraphFailure`` 401 `InvalidAuthenticationToken` without a valid one.
    func authorize(_ request: Request) throws(GraphFailure) {
        guard let header = request.headers[.authorization], !header.isEmpty else {
            throw .invalidToken("Access token is empty.")
        }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw .invalidToken("Access token is empty.")
        }
        switch authorization.validate(accessToken: String(parts[1]).trimmingCharacters(in: .whitespaces)) {
        case .valid: return
        case .expired: throw .invalidToken("Lifetime validation failed, the token is expired.")
        case .invalid: throw .invalidToken("IDX14100: JWT is not well formed, there are no dots (.).")
        }
    }

    /// Refuses a request to a pre-authenticated URL that carries `Authorization`, when the
    /// options ask for strictness beyond Graph's (``Options/strictClient``).
    func refuseAuthorization(_ request: Request) throws(GraphFailure) {
        if options.strictClient, request.headers[.authorization] != nil { throw .authorizationNotAllowed() }
    }

    /// Runs a control action for a caller with the control token or a valid access token.
    private func control(_ request: Request, _ action: () -> Void) throws -> Response {
        let header = request.headers[.authorization] ?? ""
        let token = header.lowercased().hasPrefix("bearer ") ? String(header.dropFirst(7)) : ""
        guard !token.isEmpty, token == faults.controlToken || authorization.validate(accessToken: token).isValid else {
            return Response.json(["error": "The control routes need the control token."], status: .unauthorized)
        }
        action()
        return Response(status: .noContent)
    }

    /// The signature of a blob's download URL.
    func signature(ofBlob sha256: String) -> String {
        let digest = SHA256Digest()
        digest.update(Array("\(signingKey):\(sha256)".utf8))
        return String(digest.finalizeHex().prefix(32))
    }

    /// The pre-authenticated download URL of a version's content.
    func downloadURL(base: String, version: GraphVersion) -> String {
        "\(base)/download/\(version.blob.sha256)/\(signature(ofBlob: version.blob.sha256))"
    }
}
