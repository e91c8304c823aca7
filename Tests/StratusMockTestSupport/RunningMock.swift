import Foundation
import Hummingbird
import MockOAuth
import MockSupport
import StratusTestSupport

/// A mock provider server (with its authorization server) running on a loopback port the OS
/// picks, with storage in a temporary folder of its own: what a test of a mock, an adapter or the
/// CLI needs to reach it.
public struct RunningMock<Server: Sendable>: Sendable {
    /// The mock provider.
    public let server: Server
    /// The mock's authorization server, on the same base URL.
    public let authorization: MockAuthorizationServer
    /// Where both answer.
    public let baseURL: URL
    /// An access token the authorization server issued.
    public let accessToken: String
    /// The mock's storage folder, removed when the run ends.
    public let storage: URL

    /// Runs `body` while a fresh mock runs, and removes its storage afterwards.
    /// - Parameters:
    ///   - flavor: Which provider the authorization server imitates.
    ///   - storagePrefix: The start of the storage folder's name.
    ///   - makeServer: Creates the mock on its storage folder and authorization server.
    ///   - addRoutes: Adds the mock's routes to the router.
    ///   - front: Adds routes or middleware ahead of the mock's (a proxy that rewrites answers).
    public static func withRunning<Result: Sendable>(
        flavor: MockAuthorizationServer.Flavor,
        storagePrefix: String,
        makeServer: (URL, MockAuthorizationServer) throws -> Server,
        addRoutes: (Server, Router<BasicRequestContext>) -> Void,
        front: (Router<BasicRequestContext>) -> Void = { _ in },
        _ body: @Sendable (RunningMock<Server>) async throws -> Result
    ) async throws -> Result {
        let storage = try TemporaryFolder(prefix: storagePrefix)
        defer { storage.remove() }
        let authorization = MockAuthorizationServer(configuration: .init(flavor: flavor))
        let server = try makeServer(storage.url, authorization)
        let router = Router()
        front(router)
        addRoutes(server, router)
        let token = authorization.issueTokens().accessToken
        return try await MockServer.withRunning(router) { url in
            try await body(
                RunningMock(
                    server: server, authorization: authorization, baseURL: url, accessToken: token, storage: storage.url
                )
            )
        }
    }
}
