import Foundation
import MockDropbox
import MockOAuth
import MockProviders
import Stratus
import StratusDropbox
import StratusTestSupport

/// A mock Dropbox (with its authorization server) on one base URL, and services pointed at it.
struct MockFixture: Sendable {
    /// The running mock.
    let mock: RunningMock<DropboxMockProvider>
    var server: MockDropboxServer { mock.server }
    var baseURL: URL { mock.baseURL }
    var accessToken: String { mock.accessToken }

    /// The mock's options for adapter tests: long polls held at most 2 seconds, since a mock
    /// finishes a held long poll before it stops, even when its client went away.
    static let options = MockDropboxServer.Options(maxLongpollWait: .seconds(2))

    /// Runs `body` while a fresh mock server runs.
    static func withRunning<Result: Sendable>(_ body: @Sendable (MockFixture) async throws -> Result) async throws
        -> Result
    {
        try await DropboxMockProvider(options: options).withRunning { mock in
            try await body(MockFixture(mock: mock))
        }
    }

    /// A service against this server.
    /// - Parameter batching: How uploads are committed; `nil` for single commits.
    func makeService(
        root: String = "", pageSize: Int? = nil, batching: CommitBatching? = .standard
    ) throws -> DropboxService {
        try DropboxService(
            configuration: DropboxConfiguration(
                apiURL: baseURL,
                contentURL: baseURL,
                notifyURL: baseURL,
                root: root,
                chunkSize: 4 * 1_048_576,
                singleUploadLimit: 64 * 1024,
                pageSize: pageSize,
                retryPolicy: RetryPolicy(maximumAttempts: Self.maximumAttempts, initialDelay: .milliseconds(10)),
                commitBatching: batching
            ),
            credentials: .accessToken(accessToken)
        )
    }

    /// How many attempts the services' retry policy allows.
    static let maximumAttempts = 3
}
