import Foundation
import Hummingbird
import MockSupport

/// A mock Depot server (see `PROTOCOL.md`), built on the Stratus mock kit: the kit's request log,
/// fault rules and control routes stand in front of the protocol's routes, and file contents
/// live in the kit's blob store on disk.
///
/// ```swift
/// let depot = try MockDepotServer(storageDirectory: folder)
/// let router = Router()
/// depot.addRoutes(to: router)
/// try await MockServer.withRunning(router) { baseURL in
///     // PUT baseURL/files/a.txt with Authorization: Bearer depot.apiKey
/// }
/// ```
///
/// Safe to use from any number of tasks at once.
public final class MockDepotServer: Sendable {
    /// The key every request must carry as `Authorization: Bearer <key>`.
    public let apiKey: String
    /// Every request the Depot routes answered, secrets redacted.
    public let requestLog: RequestLog
    /// The fault rules; also reachable over HTTP on `/__stratus/faults`, with ``apiKey`` or the
    /// injector's control token.
    public let faults: FaultInjector
    /// The largest body a `PUT` may have.
    public let maximumUploadSize: Int64
    let blobs: BlobStore
    let store = DepotStore()

    /// The headers the request log keeps.
    static let recordedHeaders: Set<String> = [
        "authorization", "content-length", "range", "if-match", "if-none-match", "depot-content-sha256",
    ]

    /// Creates a server with no files.
    /// - Parameters:
    ///   - storageDirectory: Where file contents are kept; created if needed.
    ///   - apiKey: The key requests must carry; fresh random text by default.
    ///   - maximumUploadSize: The largest body a `PUT` may have; 5 GiB by default.
    ///   - requestLog: Where requests are recorded.
    /// - Throws: An error when the storage folders cannot be created.
    public init(
        storageDirectory: URL,
        apiKey: String = "depot-" + RandomText.make(bytes: 24),
        maximumUploadSize: Int64 = 5 << 30,
        requestLog: RequestLog = RequestLog()
    ) throws {
        let apiKey = apiKey
        self.apiKey = apiKey
        self.requestLog = requestLog
        self.maximumUploadSize = maximumUploadSize
        self.faults = FaultInjector(
            hooks: .init(
                errorResponse: { status, retryAfter in DepotFailure.injected(status: status, retryAfter: retryAfter) },
                isValidAccessToken: { $0 == apiKey }
            ))
        self.blobs = try BlobStore(root: storageDirectory)
    }

    /// Mounts the request log, fault injection and control routes, then the Depot routes behind
    /// the API key check. Call it on a fresh router.
    /// - Parameter router: The router.
    public func addRoutes(to router: Router<BasicRequestContext>) {
        router.addMockInfrastructure(requestLog: requestLog, faults: faults, recordedHeaders: Self.recordedHeaders)
        router.add(middleware: APIKeyMiddleware(apiKey: apiKey))
        router.put("/files/**") { request, _ in try await self.answer { try await self.put(request) } }
        // Hummingbird sends what a route returns, so a HEAD answer must come without a body.
        router.head("/files/**") { request, _ in try await self.answer { try self.head(request) }.createHeadResponse() }
        router.get("/files/**") { request, _ in try await self.answer { try self.get(request) } }
        router.delete("/files/**") { request, _ in try await self.answer { try self.delete(request) } }
        router.get("/list") { request, _ in try await self.answer { try self.list(request) } }
        router.get("/changes/latest") { _, _ in Response.json(["cursor": String(self.store.latestCursor)]) }
        router.get("/changes") { request, _ in try await self.answer { try self.changes(request) } }
    }

    /// Runs a route, turning a ``DepotFailure`` into its answer.
    private func answer(_ route: () async throws -> Response) async throws -> Response {
        do {
            return try await route()
        } catch let failure as DepotFailure {
            return failure.response
        }
    }
}

/// Refuses every request without `Authorization: Bearer <the API key>` (401).
struct APIKeyMiddleware<Context: RequestContext>: RouterMiddleware {
    let apiKey: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard request.headers[.authorization] == "Bearer \(apiKey)" else {
            var failure = DepotFailure(
                status: .unauthorized, code: "unauthorized", message: "A valid API key is needed.")
            failure.headers[.wwwAuthenticate] = "Bearer"
            return failure.response
        }
        return try await next(request, context)
    }
}
