import Foundation
import Hummingbird
import MockDropbox
import MockOAuth
import MockSupport
import Stratus
import StratusDropbox

/// A mock Dropbox (with its authorization server) on one base URL, and services pointed at it.
struct MockFixture: Sendable {
    /// The server of the running check, for the contract suite's factory.
    @TaskLocal static var current: MockFixture?

    let server: MockDropboxServer
    let baseURL: URL
    let accessToken: String

    /// Runs `body` while a fresh mock server runs.
    static func withRunning<Result: Sendable>(_ body: @Sendable (MockFixture) async throws -> Result) async throws -> Result {
        let storage = FileManager.default.temporaryDirectory.appending(path: "stratus-dropbox-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: storage) }
        let authorization = MockAuthorizationServer(configuration: .init(flavor: .dropbox))
        let server = try MockDropboxServer(storageDirectory: storage, authorization: authorization)
        let router = Router()
        server.addRoutes(to: router)
        let token = authorization.issueTokens().accessToken
        return try await MockServer.withRunning(router) { url in
            try await body(MockFixture(server: server, baseURL: url, accessToken: token))
        }
    }

    /// A service against this server.
    func makeService(root: String = "", pageSize: Int? = nil) throws -> DropboxService {
        try DropboxService(
            configuration: DropboxConfiguration(
                apiURL: baseURL,
                contentURL: baseURL,
                notifyURL: baseURL,
                root: root,
                chunkSize: 4 * 1_048_576,
                singleUploadLimit: 64 * 1024,
                pageSize: pageSize,
                retryPolicy: RetryPolicy(maximumAttempts: 3, initialDelay: .milliseconds(10))
            ),
            credentials: .accessToken(accessToken)
        )
    }
}
