import Foundation
import MockOneDrive
import MockSupport
import Stratus
import StratusHTTP
import StratusOneDrive
import StratusTestSupport

/// A mock Graph (its Graph host and its content host, each on a port the OS picks) with its
/// own storage folder, and services pointed at it.
struct MockFixture: Sendable {
    /// The server of the running check, for the contract suite's factory.
    @TaskLocal static var current: MockFixture?

    let server: MockOneDriveServer
    /// The Graph host's base (append `/v1.0/...`).
    let graphURL: URL
    /// The content host's base (download and upload-session URLs).
    let contentURL: URL
    let accessToken: String

    /// Graph's versioned base URL on the mock.
    var apiURL: URL { graphURL.appending(path: "v1.0") }
    /// The mock's fault rules.
    var faults: FaultInjector { server.faults }

    /// Runs `body` while a fresh mock runs, then stops it and removes its storage.
    static func withRunning<Result: Sendable>(
        options: MockOneDriveServer.Options = .init(),
        _ body: @Sendable (MockFixture) async throws -> Result
    ) async throws -> Result {
        let storage = FileManager.default.temporaryDirectory.appending(path: "stratus-onedrive-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: storage) }
        let server = try MockOneDriveServer(storageDirectory: storage, options: options)
        let token = server.authorization.issueTokens().accessToken
        return try await server.withRunning { graphURL, contentURL in
            try await body(
                MockFixture(server: server, graphURL: graphURL, contentURL: contentURL, accessToken: token))
        }
    }

    /// A service against this mock: 320 KiB fragments and a 64 KiB simple-upload limit, so every
    /// boundary is crossed with little data, and a quick retry policy of 3 attempts.
    func makeService(
        root: OneDriveRoot = .appFolder,
        pageSize: Int = 200,
        simpleUploadLimit: Int64 = 64 * 1024,
        fragmentSize: Int64 = OneDriveConfiguration.fragmentUnit,
        http: StratusHTTPClient? = nil
    ) throws -> OneDriveService {
        try OneDriveService(
            configuration: OneDriveConfiguration(
                apiURL: apiURL,
                root: root,
                simpleUploadLimit: simpleUploadLimit,
                fragmentSize: fragmentSize,
                pageSize: pageSize,
                retryPolicy: RetryPolicy(maximumAttempts: 3, initialDelay: .milliseconds(10)),
                pollingSchedule: PollingSchedule.quickForTests
            ),
            credentials: .accessToken(accessToken),
            http: http
        )
    }
}
