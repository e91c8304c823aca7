import Foundation
import MockNextcloud
import MockProviders
import MockSupport
import Stratus
import StratusHTTP
import StratusWebDAV

/// The matrix against ``MockNextcloud`` through the `webdav` adapter (vendor `nextcloud`): every
/// upload is one streamed PUT (WebDAV has no chunked upload, so the "chunked" row is a larger
/// PUT), versions through Nextcloud's versions endpoint. The mock signs in with HTTP Basic, so the
/// "token expired" fault changes nothing.
public struct NextcloudMatrixProvider: MatrixProvider {
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

    /// `nextcloud`.
    public var name: String { "nextcloud" }

    /// Runs `body` against a fresh Nextcloud mock in a temporary folder.
    public func withHarness(_ body: @Sendable (MatrixHarness) async throws -> Void) async throws {
        let provider = NextcloudMockProvider(user: "matrix", password: "matrix-\(UUID().uuidString.prefix(8))")
        try await MatrixMock.run(provider, stallTimeout: clientStallTimeout) { matrix in
            let service = try WebDAVService(
                configuration: WebDAVConfiguration(
                    url: matrix.endpoints.apiURL,
                    credentials: WebDAVCredentials(user: provider.user, password: provider.password),
                    vendor: .nextcloud,
                    retryPolicy: RetryPolicy(maximumAttempts: 4, initialDelay: .milliseconds(20))
                ),
                http: matrix.http
            )
            try await body(
                matrix.harness(
                    service: service,
                    route: { operation in
                        switch operation {
                        case .smallUpload, .batchCommit, .chunkedUpload: ("/remote.php/dav/files/*/file.bin", "PUT")
                        case .download: ("/remote.php/dav/files/*/file.bin", "GET")
                        case .changeFeed: ("/remote.php/dav/files/*/.stratus/journal/", "PROPFIND")
                        case .versions: ("/remote.php/dav/versions/*", "PROPFIND")
                        case .restore: ("/remote.php/dav/versions/*", "MOVE")
                        case .delete: ("/remote.php/dav/files/*/cell/file.bin", "DELETE")
                        }
                    }
                ))
        }
    }
}
