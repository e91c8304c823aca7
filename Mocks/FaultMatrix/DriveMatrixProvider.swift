import Foundation
import MockDrive
import MockProviders
import MockSupport
import Stratus
import StratusDrive
import StratusHTTP
import StratusOAuth

/// The matrix against ``MockDrive``: 256 KiB resumable chunks, multipart uploads up to 64 KiB,
/// the hidden app folder as root (where a delete is permanent), tokens refreshed through the
/// mock's authorization server.
public struct DriveMatrixProvider: MatrixProvider {
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

    /// `drive`.
    public var name: String { "drive" }

    /// Runs `body` against a fresh mock Drive in a temporary folder.
    public func withHarness(_ body: @Sendable (MatrixHarness) async throws -> Void) async throws {
        try await MatrixMock.run(DriveMockProvider(), stallTimeout: clientStallTimeout) { matrix in
            let endpoints = matrix.endpoints
            let service = try DriveService(
                configuration: DriveConfiguration(
                    apiURL: endpoints.apiURL,
                    uploadURL: endpoints.baseURL,
                    chunkSize: 256 * 1024,
                    singleUploadLimit: 64 * 1024,
                    retryPolicy: RetryPolicy(maximumAttempts: 4, initialDelay: .milliseconds(20))
                ),
                credentials: matrix.refreshingCredentials(
                    .google(
                        clientID: endpoints.clientID, clientSecret: endpoints.clientSecret, baseURL: endpoints.baseURL)),
                http: matrix.http
            )
            try await body(
                matrix.harness(
                    service: service,
                    route: { operation in
                        switch operation {
                        case .smallUpload, .batchCommit: ("/upload/drive/v3/files", "POST")
                        case .chunkedUpload: ("/upload/drive/v3/files", "PUT")
                        case .download: ("/drive/v3/files/*", "GET")
                        case .changeFeed: ("/drive/v3/changes", "GET")
                        case .versions: ("/drive/v3/files/*/revisions", "GET")
                        case .restore: ("/upload/drive/v3/files/*", "PATCH")
                        case .delete: ("/drive/v3/files/*", "DELETE")
                        }
                    }
                ))
        }
    }
}
