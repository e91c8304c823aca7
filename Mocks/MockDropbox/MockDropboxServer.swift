import Foundation
import Hummingbird
import MockOAuth
import MockSupport

/// A mock of Dropbox API v2 (the `files` routes a sync client needs) speaking the real wire
/// protocol: RPC calls with JSON bodies, uploads and downloads with `Dropbox-API-Arg`,
/// Stone-shaped errors (400 text, 401 `AuthError`, 409 route unions).
///
/// ```swift
/// let auth = MockAuthorizationServer(configuration: .init(flavor: .dropbox))
/// let dropbox = try MockDropboxServer(storageDirectory: folder, authorization: auth)
/// let router = Router()
/// dropbox.addRoutes(to: router)
/// try await MockServer.withRunning(router) { baseURL in
///     // POST baseURL/2/files/upload with a token from auth.issueTokens()
/// }
/// ```
///
/// File contents live on disk in a content-addressed blob store under `storageDirectory`;
/// metadata, revisions, the change log and property templates live in memory, and with
/// `persistence: .saved()` are also saved to `dropbox-state.json` there and loaded by the next
/// server on that folder, so cursors issued before a restart go on working (upload sessions
/// do not survive one; see ``saveState()`` and ``PersistentState`` for what a hard kill loses).
/// API, content and notify hosts are one base URL. Safe to use from any number of tasks at once.
public final class MockDropboxServer: Sendable {
    /// Limits and behaviour.
    public struct Options: Sendable {
        /// The largest body of a single `upload` or session call (Dropbox: 150 MiB).
        public var maxUploadBytes: Int64
        /// The longest a `list_folder/longpoll` waits, whatever the client asks (for tests).
        public var maxLongpollWait: Duration
        /// The `backoff` (seconds) every `list_folder/longpoll` answer carries, as Dropbox adds
        /// one when it wants fewer long polls; `nil` (the default) for none. The mock answers
        /// whatever comes next either way: honouring the backoff is the client's part.
        public var longpollBackoff: Int?
        /// How writes contend in the namespace, as Dropbox serialises them (see
        /// ``WriteContention``): on by default, with the defaults of ``WriteContention/Settings``;
        /// `nil` turns it off, so commits never wait and never meet a 429.
        public var writeContention: WriteContention.Settings?
        /// The `allocated` bytes `users/get_space_usage` reports (an `individual` allocation).
        /// Default 2 GiB, a Dropbox Basic account's. Reported only: uploads are not refused
        /// past it.
        public var allocatedSpace: UInt64
        /// How many `delete_batch/check` calls answer `in_progress` before the job's result.
        /// Default 1: Dropbox runs `delete_batch` asynchronously, so a client must poll; 0
        /// answers the result on the first check.
        public var pendingJobChecks: Int

        /// Creates options.
        /// - Parameters:
        ///   - maxUploadBytes: The largest body of one upload call.
        ///   - maxLongpollWait: The longest a longpoll waits.
        ///   - longpollBackoff: The `backoff` in every longpoll answer, in seconds.
        ///   - writeContention: How writes contend; `nil` for never.
        ///   - allocatedSpace: The space `users/get_space_usage` reports as allocated, in bytes.
        ///   - pendingJobChecks: How many checks of a `delete_batch` job answer `in_progress`.
        public init(
            maxUploadBytes: Int64 = 150 * 1024 * 1024, maxLongpollWait: Duration = .seconds(480),
            longpollBackoff: Int? = nil, writeContention: WriteContention.Settings? = WriteContention.Settings(),
            allocatedSpace: UInt64 = 2 << 30, pendingJobChecks: Int = 1
        ) {
            self.maxUploadBytes = maxUploadBytes
            self.maxLongpollWait = maxLongpollWait
            self.longpollBackoff = longpollBackoff
            self.writeContention = writeContention
            self.allocatedSpace = allocatedSpace
            self.pendingJobChecks = max(0, pendingJobChecks)
        }
    }

    /// The authorization server whose tokens are accepted.
    public let authorization: MockAuthorizationServer
    /// Every request the Dropbox routes answered, secrets redacted.
    public let requestLog: RequestLog
    /// The options.
    public let options: Options
    /// The fault rules: add one to make the mock fail the way Dropbox can (see ``FaultRule``);
    /// also reachable over HTTP on `/__stratus/faults`.
    public let faults: FaultInjector
    let blobs: BlobStore
    let namespace: Namespace
    let sessions: UploadSessions
    let templates: PropertyTemplates
    /// The saved state, when the server was asked to save it (`persistence: .saved()`).
    public let persistence: PersistentState?
    /// Where every commit takes its turn: the namespace's write contention, with what is in
    /// flight and how many writes were refused.
    public let writes: WriteContention
    /// The jobs of `delete_batch` and `upload_session/finish_batch`, by id.
    let asyncJobs = AsyncJobs()

    /// Creates a server with an empty namespace, or with the one saved in `storageDirectory`.
    /// - Parameters:
    ///   - storageDirectory: Where blobs and upload sessions are written; created if needed.
    ///   - authorization: The authorization server whose access tokens are accepted; its
    ///     routes are mounted beside the Dropbox routes.
    ///   - options: Limits and behaviour.
    ///   - requestLog: Where requests are recorded.
    ///   - persistence: Whether the namespace is also saved in `storageDirectory` and loaded
    ///     from it (in memory only by default).
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
        self.faults = FaultInjector(hooks: DropboxFaultAnswers.hooks(authorization: authorization))
        self.writes = WriteContention(settings: options.writeContention)
        self.blobs = try BlobStore(root: storageDirectory)
        self.sessions = UploadSessions(directory: blobs.scratchDirectory)
        let restored = try Self.restoreState(in: storageDirectory, blobs: blobs, choice: persistence)
        self.namespace = restored.namespace
        self.templates = restored.templates
        self.persistence = restored.persistence
    }

    /// Makes every `list_folder` cursor issued so far answer `reset`.
    public func invalidateCursors() {
        namespace.invalidateCursors()
    }

    /// Mounts the `/2/files/...` routes, the user property-template routes
    /// (`/2/file_properties/templates/{add,get,list}_for_user`), the account routes
    /// (`/2/users/get_current_account`, `/2/users/get_space_usage`), the authorization server's
    /// routes and the fault control routes (`/__stratus/...`, see ``FaultControlRoutes``) on a
    /// router, behind the request log and fault injection. Call it on a fresh router: the
    /// log and the faults apply to routes added after them.
    /// - Parameter router: The router.
    public func addRoutes(to router: Router<BasicRequestContext>) {
        router.addMockInfrastructure(requestLog: requestLog, faults: faults)
        authorization.addRoutes(to: router)
        var table: [(String, @Sendable (inout Request) async throws -> Response)] = [
            ("upload", { try await self.upload(&$0) }),
            ("upload_session/start", { try await self.uploadSessionStart(&$0) }),
            ("upload_session/append_v2", { try await self.uploadSessionAppend(&$0) }),
            ("upload_session/finish", { try await self.uploadSessionFinish(&$0) }),
            ("download", { try await self.download(&$0) }),
            ("get_metadata", { try await self.getMetadata(&$0) }),
            ("delete_v2", { try await self.delete(&$0) }),
            ("list_revisions", { try await self.listRevisions(&$0) }),
            ("restore", { try await self.restore(&$0) }),
            ("list_folder", { try await self.listFolder(&$0) }),
            ("list_folder/continue", { try await self.listFolderContinue(&$0) }),
            ("list_folder/get_latest_cursor", { try await self.getLatestCursor(&$0) }),
            ("list_folder/longpoll", { try await self.longpoll(&$0) }),
        ]
        table += batchCommitRoutes
        table += relocationRoutes
        let properties: [(String, @Sendable (inout Request) async throws -> Response)] = [
            ("templates/add_for_user", { try await self.addTemplate(&$0) }),
            ("templates/get_for_user", { try await self.getTemplate(&$0) }),
            ("templates/list_for_user", { try await self.listTemplates(&$0) }),
        ]
        for (name, handler) in properties {
            router.post(RouterPath("/2/file_properties/" + name)) { request, _ in
                var request = request
                return try await Self.answer { try await handler(&request) }
            }
        }
        for (name, handler) in table {
            router.post(RouterPath("/2/files/" + name)) { request, _ in
                var request = request
                return try await Self.answer { try await handler(&request) }
            }
        }
        for (name, handler) in userRoutes {
            router.post(RouterPath("/2/users/" + name)) { request, _ in
                var request = request
                return try await Self.answer { try await handler(&request) }
            }
        }
    }

    /// The answer for a result value: 200 JSON.
    static func ok(_ value: Any) -> Response {
        .json(text: DropboxJSON.text(value))
    }
}
