import Foundation
import MockOneDrive
import MockProviders
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
        try await MatrixMock.run(OneDriveMockProvider(), stallTimeout: clientStallTimeout) { matrix in
            let endpoints = matrix.endpoints
            let service = try OneDriveService(
                configuration: OneDriveConfiguration(
                    apiURL: endpoints.apiURL,
                    simpleUploadLimit: 64 * 1024,
                    fragmentSize: 2 * OneDriveConfiguration.fragmentUnit,
                    retryPolicy: RetryPolicy(maximumAttempts: 4, initialDelay: .milliseconds(20))
                ),
                credentials: matrix.refreshingCredentials(
                    .microsoft(
                        clientID: endpoints.clientID, clientSecret: endpoints.clientSecret,
                        loginURL: endpoints.baseURL)),
                http: matrix.http
            )
            try await body(
                matrix.harness(
                    service: service,
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
    }
}
