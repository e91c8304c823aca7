import Foundation
import MockDropbox
import MockOAuth
import MockProviders

/// A mock Dropbox (with its authorization server) running in this process on a free port.
struct DropboxMock: Sendable {
    /// The running mock.
    let mock: RunningMock<DropboxMockProvider>
    var server: MockDropboxServer { mock.server }
    var baseURL: URL { mock.baseURL }
    /// An access token the mock's authorization server issued.
    var accessToken: String { mock.accessToken }

    /// Runs `body` while a fresh mock runs.
    static func withRunning<Result: Sendable>(_ body: @Sendable (DropboxMock) async throws -> Result) async throws
        -> Result
    {
        try await DropboxMockProvider().withRunning(storagePrefix: "stratus-cli-dropbox") { mock in
            try await body(DropboxMock(mock: mock))
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
