import Foundation
import MockProviders
import Stratus
import StratusHTTP
import StratusOAuth

/// What every matrix provider sets up around its mock (which MockProviders builds and starts):
/// an HTTP client with the provider's stall timeout, and credentials that refresh through the
/// mock's authorization server.
struct MatrixMock<Provider: MockProvider>: Sendable {
    /// The running mock.
    let mock: RunningMock<Provider>
    /// The client the service and its credentials use.
    let http: StratusHTTPClient

    /// What a client needs to reach the mock.
    var endpoints: MockEndpoints { mock.endpoints }

    /// Runs the mock `provider` describes in a temporary folder while `body` runs, then stops
    /// it and the client and removes the folder.
    static func run(
        _ provider: Provider, stallTimeout: Duration?, _ body: @Sendable (MatrixMock) async throws -> Void
    ) async throws {
        var timeouts = StratusHTTPClient.Configuration.Timeouts()
        if let stallTimeout { timeouts.stall = stallTimeout }
        let http = try StratusHTTPClient(configuration: .init(timeouts: timeouts))
        do {
            try await provider.withRunning(storagePrefix: "stratus-matrix-\(provider.name)") { mock in
                try await body(MatrixMock(mock: mock, http: http))
            }
            await http.shutdown()
        } catch {
            await http.shutdown()
            throw error
        }
    }

    /// A cell's harness: `service` against this mock, with the mock's fault rules and request
    /// log, a small upload of 48 KiB (one request everywhere) and by default a chunked one of
    /// 1.3 MB (several requests, except with Dropbox's 4 MiB chunks).
    func harness(
        service: any Service, chunkedSize: Int = 1_300_000, keepsVersionsOfDeletedFiles: Bool = false,
        everyVersionHasHash: Bool = true,
        route: @escaping @Sendable (MatrixOperation) -> (path: String, method: String)
    ) -> MatrixHarness {
        MatrixHarness(
            service: service, faults: mock.server.faults, requestLog: mock.server.requestLog, smallSize: 48 * 1024,
            chunkedSize: chunkedSize, keepsVersionsOfDeletedFiles: keepsVersionsOfDeletedFiles,
            everyVersionHasHash: everyVersionHasHash, route: route)
    }

    /// Credentials that start with the mock's token pair and refresh through `provider`.
    func refreshingCredentials(_ provider: OAuthProvider) -> BearerCredentials {
        let store = InMemoryTokenStore(
            OAuthToken(accessToken: mock.tokens.accessToken, refreshToken: mock.tokens.refreshToken))
        return .provider(CredentialProvider(client: OAuthClient(provider: provider, http: http), store: store))
    }
}
