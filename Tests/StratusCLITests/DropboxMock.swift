import Foundation
import Hummingbird
import MockDropbox
import MockOAuth
import MockSupport

/// A mock Dropbox (with its authorization server) running in this process on a free port.
struct DropboxMock: Sendable {
    let server: MockDropboxServer
    let baseURL: URL
    /// An access token the mock's authorization server issued.
    let accessToken: String

    /// Runs `body` while a fresh mock runs.
    static func withRunning<Result: Sendable>(_ body: @Sendable (DropboxMock) async throws -> Result) async throws -> Result {
        let storage = FileManager.default.temporaryDirectory.appending(path: "stratus-cli-dropbox-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: storage) }
        let authorization = MockAuthorizationServer(configuration: .init(flavor: .dropbox))
        let server = try MockDropboxServer(storageDirectory: storage, authorization: authorization)
        let router = Router()
        server.addRoutes(to: router)
        let token = authorization.issueTokens().accessToken
        return try await MockServer.withRunning(router) { url in
            try await body(DropboxMock(server: server, baseURL: url, accessToken: token))
        }
    }

    /// `--option` arguments that point a `dropbox` remote's three hosts at the mock.
    var hostOptions: [String] {
        ["api_url", "content_url", "notify_url"].flatMap { ["--option", "\($0)=\(baseURL.absoluteString)"] }
    }

    /// The access token as an environment override of remote `name`, so it is never an argument.
    func tokenEnvironment(remote name: String) -> [String: String] {
        ["STRATUS_REMOTE_\(name.uppercased())_ACCESS_TOKEN": accessToken]
    }
}
