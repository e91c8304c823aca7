import Foundation
import MockOAuth
import MockOneDrive
import MockSupport
import Stratus
import StratusHTTP
import StratusOAuth
import StratusOneDrive

/// The matrix against ``MockOneDrive`` (Microsoft Graph): simple `PUT /content` uploads up to
/// 64 KiB, upload sessions in fragments of 640 KiB (2 × 320 KiB) sent to the content host,
/// downloads through the `302` to the content host, the change feed through `delta`, versions
/// and `restoreVersion`, the app folder as root. Tokens refresh through the mock's Microsoft
/// identity platform, which replaces the refresh token on every use.
public struct OneDriveMatrixProvider: MatrixProvider {
    /// The stall timeout of the service's HTTP client: the matrix's short one, which its stall
    /// fault outlasts, or `nil` for the client's default in runs that inject no stall (the sync
    /// simulation, where a busy machine can hold an answer for seconds).
    public var clientStallTimeout: Duration?

    /// Creates the provider.
    /// - Parameter clientStallTimeout: The service's HTTP client's stall timeout; `nil` for the
    ///   client's default.
    public init(clientStallTimeout: Duration? = MatrixFault.clientStallTimeout) {
        self.clientStallTimeout = clientStallTimeout
    }

    /// `onedrive`.
    public var name: String { "onedrive" }

    /// Runs `body` against a fresh Graph mock (both of its hosts) in a temporary folder.
    public func withHarness(_ body: @Sendable (MatrixHarness) async throws -> Void) async throws {
        let storage = FileManager.default.temporaryDirectory.appending(
            path: "stratus-matrix-onedrive-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: storage) }
        let http = try MatrixMock.client(stallTimeout: clientStallTimeout)
        do {
            let server = try MockOneDriveServer(storageDirectory: storage)
            try await server.withRunning { graphURL, _ in
                let authorization = server.authorization
                let issued = authorization.issueTokens()
                let store = InMemoryTokenStore(
                    OAuthToken(accessToken: issued.accessToken, refreshToken: issued.refreshToken))
                let client = OAuthClient(
                    provider: .microsoft(
                        clientID: authorization.configuration.clientID,
                        clientSecret: authorization.configuration.clientSecret,
                        loginURL: graphURL),
                    http: http)
                let service = try OneDriveService(
                    configuration: OneDriveConfiguration(
                        apiURL: graphURL.appending(path: "v1.0"),
                        simpleUploadLimit: 64 * 1024,
                        fragmentSize: 2 * OneDriveConfiguration.fragmentUnit,
                        retryPolicy: RetryPolicy(maximumAttempts: 4, initialDelay: .milliseconds(20))
                    ),
                    credentials: .provider(CredentialProvider(client: client, store: store)),
                    http: http
                )
                try await body(
                    MatrixHarness(
                        service: service,
                        faults: server.faults,
                        requestLog: server.requestLog,
                        smallSize: 48 * 1024,
                        chunkedSize: 1_300_000,
                        keepsVersionsOfDeletedFiles: false,
                        // Graph's driveItemVersion has no hashes: only the current one has.
                        everyVersionHasHash: false,
                        route: { operation in
                            switch operation {
                            case .smallUpload, .batchCommit: ("/v1.0/*/content", "PUT")
                            // Fragments go to the session's URL on the content host.
                            case .chunkedUpload: ("/upload/*", "PUT")
                            // The bytes come from the download URL on the content host.
                            case .download: ("/download/*", "GET")
                            case .changeFeed: ("/v1.0/*delta*", "GET")
                            case .versions: ("/v1.0/*/versions", "GET")
                            case .restore: ("/v1.0/*/restoreVersion", "POST")
                            case .delete: ("/v1.0/*", "DELETE")
                            }
                        }
                    ))
            }
            await http.shutdown()
        } catch {
            await http.shutdown()
            throw error
        }
    }
}
