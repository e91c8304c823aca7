import Foundation
import Hummingbird
import MockDrive
import MockOAuth
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
        try await MatrixMock.run(stallTimeout: clientStallTimeout, flavor: .google) { mock in
            let server = try MockDriveServer(storageDirectory: mock.storage, authorization: mock.authorization)
            let router = Router()
            server.addRoutes(to: router)
            return (server, router)
        } serve: { mock, server, url in
            let authorization = mock.authorization
            let service = try DriveService(
                configuration: DriveConfiguration(
                    apiURL: url,
                    uploadURL: url,
                    chunkSize: 256 * 1024,
                    singleUploadLimit: 64 * 1024,
                    retryPolicy: RetryPolicy(maximumAttempts: 4, initialDelay: .milliseconds(20))
                ),
                credentials: mock.refreshingCredentials(
                    .google(
                        clientID: authorization.configuration.clientID,
                        clientSecret: authorization.configuration.clientSecret,
                        baseURL: url
                    )),
                http: mock.http
            )
            try await body(
                MatrixHarness(
                    service: service,
                    faults: server.faults,
                    requestLog: server.requestLog,
                    smallSize: 48 * 1024,
                    chunkedSize: 1_300_000,
                    keepsVersionsOfDeletedFiles: false,
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
