import Foundation
import Hummingbird
import MockOAuth
import MockSupport
import StratusHTTP
import StratusOAuth

/// What every matrix provider sets up around its mock: a temporary folder, the authorization
/// server, an HTTP client with the provider's stall timeout, the running server, and credentials
/// that refresh through the mock.
struct MatrixMock {
    /// The folder the mock stores its blobs in.
    let storage: URL
    /// The mock's authorization server.
    let authorization: MockAuthorizationServer
    /// The client the service and its credentials use.
    let http: StratusHTTPClient

    /// Makes the parts and the mock server (`makeServer` returns it with its router), serves it
    /// while `serve` runs, and cleans everything up.
    static func run<Server: Sendable>(
        stallTimeout: Duration?,
        flavor: MockAuthorizationServer.Flavor,
        makeServer: (MatrixMock) throws -> (Server, Router<BasicRequestContext>),
        serve: @Sendable (MatrixMock, Server, URL) async throws -> Void
    ) async throws {
        let storage = FileManager.default.temporaryDirectory.appending(
            path: "stratus-matrix-\(flavor)-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: storage) }
        let http = try client(stallTimeout: stallTimeout)
        let mock = MatrixMock(
            storage: storage, authorization: MockAuthorizationServer(configuration: .init(flavor: flavor)), http: http)
        do {
            let (server, router) = try makeServer(mock)
            try await MockServer.withRunning(router) { url in try await serve(mock, server, url) }
            await http.shutdown()
        } catch {
            await http.shutdown()
            throw error
        }
    }

    /// An HTTP client with the given stall timeout, or the client's default one for `nil`.
    static func client(stallTimeout: Duration?) throws -> StratusHTTPClient {
        var timeouts = StratusHTTPClient.Configuration.Timeouts()
        if let stallTimeout { timeouts.stall = stallTimeout }
        return try StratusHTTPClient(configuration: .init(timeouts: timeouts))
    }

    /// Credentials that start with a fresh token pair and refresh through the mock.
    func refreshingCredentials(_ provider: OAuthProvider) -> BearerCredentials {
        let issued = authorization.issueTokens()
        let store = InMemoryTokenStore(OAuthToken(accessToken: issued.accessToken, refreshToken: issued.refreshToken))
        return .provider(CredentialProvider(client: OAuthClient(provider: provider, http: http), store: store))
    }
}
