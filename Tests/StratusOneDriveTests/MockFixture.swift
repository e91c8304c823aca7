import Foundation
import MockOneDrive
import MockProviders
import MockSupport
import Stratus
import StratusHTTP
import StratusOneDrive
import StratusTestSupport

/// A mock Graph (its Graph host and its content host, each on a port the OS picks) with its
/// own storage folder, and services pointed at it.
struct MockFixture: Sendable {
    /// The running mock.
    let mock: RunningMock<OneDriveMockProvider>
    var server: MockOneDriveServer { mock.server }
    /// The Graph host's base (append `/v1.0/...`), where the identity platform answers too.
    var graphURL: URL { mock.baseURL }
    /// Graph's versioned base URL on the mock.
    var apiURL: URL { mock.endpoints.apiURL }
    var accessToken: String { mock.accessToken }
    /// The mock's fault rules.
    var faults: FaultInjector { server.faults }

    /// Runs `body` while a fresh mock runs, then stops it and removes its storage. The mock is
    /// stricter than Graph with a client's mistakes (``MockOneDriveServer/Options/strictClient``),
    /// so the adapter's own are caught.
    static func withRunning<Result: Sendable>(
        options: MockOneDriveServer.Options = .init(),
        _ body: @Sendable (MockFixture) async throws -> Result
    ) async throws -> Result {
        var options = options
        options.strictClient = true
        return try await OneDriveMockProvider(options: options).withRunning { mock in
            try await body(MockFixture(mock: mock))
        }
    }

    /// A service against this mock: 320 KiB fragments and a 64 KiB simple-upload limit, so every
    /// boundary is crossed with little data, and a quick retry policy of 3 attempts.
    func makeService(
        root: OneDriveRoot = .appFolder,
        pageSize: Int = 200,
        simpleUploadLimit: Int64 = 64 * 1024,
        fragmentSize: Int64 = OneDriveConfiguration.fragmentUnit,
        http: StratusHTTPClient? = nil,
        stateFolder: URL? = nil
    ) throws -> OneDriveService {
        try OneDriveService(
            configuration: OneDriveConfiguration(
                apiURL: apiURL,
                root: root,
                simpleUploadLimit: simpleUploadLimit,
                fragmentSize: fragmentSize,
                pageSize: pageSize,
                retryPolicy: RetryPolicy(maximumAttempts: Self.maximumAttempts, initialDelay: .milliseconds(10)),
                pollingSchedule: PollingSchedule.quickForTests,
                stateFolder: stateFolder
            ),
            credentials: .accessToken(accessToken),
            http: http
        )
    }

    /// How many attempts the services' retry policy allows.
    static let maximumAttempts = 3
}
