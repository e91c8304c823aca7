import Foundation
import MockDropbox
import MockProviders
import MockSupport
import Stratus
import StratusDropbox
import StratusHTTP
import StratusOAuth

/// The matrix against ``MockDropbox``: 4 MiB chunks, single uploads up to 64 KiB, commits in
/// batches (the adapter's default), tokens refreshed through the mock's authorization server.
public struct DropboxMatrixProvider: MatrixProvider {
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

    /// `dropbox`.
    public var name: String { "dropbox" }

    /// Runs `body` against a fresh mock Dropbox in a temporary folder.
    public func withHarness(_ body: @Sendable (MatrixHarness) async throws -> Void) async throws {
        try await MatrixMock.run(DropboxMockProvider(), stallTimeout: clientStallTimeout) { matrix in
            let endpoints = matrix.endpoints
            let service = try DropboxService(
                configuration: DropboxConfiguration(
                    apiURL: endpoints.apiURL,
                    contentURL: endpoints.baseURL,
                    notifyURL: endpoints.baseURL,
                    root: "/matrix",
                    chunkSize: 4 * 1_048_576,
                    singleUploadLimit: 64 * 1024,
                    retryPolicy: RetryPolicy(maximumAttempts: 4, initialDelay: .milliseconds(20))
                ),
                credentials: matrix.refreshingCredentials(
                    .dropbox(
                        clientID: endpoints.clientID, clientSecret: endpoints.clientSecret, baseURL: endpoints.baseURL)),
                http: matrix.http
            )
            try await body(
                matrix.harness(
                    service: service,
                    chunkedSize: 9 * 1_048_576,
                    keepsVersionsOfDeletedFiles: true,
                    route: { operation in
                        let path =
                            switch operation {
                            // Uploads are committed in batches: a small upload's bytes go in a
                            // session start, its commit in a batch.
                            case .smallUpload: "/2/files/upload_session/start"
                            case .batchCommit: "/2/files/upload_session/finish_batch_v2"
                            case .chunkedUpload: "/2/files/upload_session/append_v2"
                            case .download: "/2/files/download"
                            case .changeFeed: "/2/files/list_folder/continue"
                            case .versions: "/2/files/list_revisions"
                            case .restore: "/2/files/restore"
                            case .delete: "/2/files/delete_v2"
                            }
                        return (path, "POST")
                    }
                ))
        }
    }
}
