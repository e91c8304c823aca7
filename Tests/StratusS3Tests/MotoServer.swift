import Foundation
import Logging
import MotoSupport
import Stratus
import StratusHTTP
import StratusTestSupport
import Testing

@testable import StratusS3

/// One moto S3 server for the whole test process, started on first use by
/// `Scripts/moto/moto-server.py` on a port the OS picks. It exits when this process's end of
/// its stdin pipe closes, which the kernel does when the test process ends, however it ends.
enum MotoServer {
    /// The smallest part moto is told to accept (S3 itself: 5 MiB), so multipart uploads are
    /// exercised with small files.
    static let minimumPartSize: Int64 = 256 * 1024

    /// Whether the moto tests run: when python3 can import moto's server, and always under
    /// `CI=true`, where a missing moto must fail loudly instead of skipping.
    static let shouldRun: Bool = isCI || canImportMoto()

    static let skipReason: Comment =
        "python3 with moto's server is not installed (pip install 'moto[server]'); the S3 tests against moto are skipped. Under CI=true they fail instead."

    static var isCI: Bool { ProcessInfo.processInfo.environment["CI"]?.lowercased() == "true" }

    /// The server's endpoint, starting it the first time.
    /// - Throws: When moto cannot be started (with the reason).
    static func endpoint() async throws -> URL {
        try await launch.value
    }

    private static let launch = Task<URL, any Error> { try await start() }

    /// A second server whose first whole-object GET of each `cut-me/` key drops the connection
    /// after 100 KiB (the script's `--cut-downloads-after`).
    static func cuttingEndpoint() async throws -> URL {
        try await cuttingLaunch.value
    }

    static let cutAfter = 100 * 1024

    private static let cuttingLaunch = Task<URL, any Error> {
        try await start(arguments: ["--cut-downloads-after", String(cutAfter)])
    }

    private static func canImportMoto() -> Bool { MotoLauncher.isInstalled() }

    private static func start(arguments: [String] = []) async throws -> URL {
        try await MotoLauncher.start(minimumPartSize: minimumPartSize, arguments: arguments)
    }

    /// Test credentials (moto accepts any).
    static let credentials = S3Credentials(accessKeyID: "AKIDMOTOTEST", secretAccessKey: "moto-test-secret-not-real")

    /// A configuration for a bucket on the server with small parts.
    static func configuration(
        endpoint: URL, bucket: String, root: String = "", pageSize: Int = 1000,
        partSize: Int64 = minimumPartSize, singleUploadLimit: Int64 = 2 * minimumPartSize,
        abandonedUploadAge: Duration = .seconds(86_400)
    ) throws -> S3Configuration {
        try S3Configuration(
            endpoint: endpoint, region: "us-east-1", bucket: bucket, root: root, addressing: .path,
            versioning: .enable, singleUploadLimit: singleUploadLimit, partSize: partSize,
            minimumPartSize: minimumPartSize, changePageSize: pageSize, abandonedUploadAge: abandonedUploadAge,
            retryPolicy: RetryPolicy(maximumAttempts: 3, initialDelay: .milliseconds(50)),
            pollingSchedule: PollingSchedule.quickForTests
        )
    }

    /// Creates a bucket (an existing one is fine).
    static func createBucket(_ service: S3Service) async throws {
        do {
            _ = try await service.transport.send(
                S3Transport.Request(method: .put, key: nil, action: "CreateBucket of \(service.configuration.bucket)"),
                repetition: .safe
            )
        } catch let error as ServiceError where error.httpStatus == 409 {
            return
        }
    }

    /// A service on a bucket of its own, created.
    static func makeService(
        bucket: String, root: String = "", pageSize: Int = 1000, abandonedUploadAge: Duration = .seconds(86_400),
        on server: URL? = nil,
        logger: Logger = Logger(label: "stratus.s3.test", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws -> S3Service {
        let endpoint: URL
        if let server { endpoint = server } else { endpoint = try await self.endpoint() }
        let service = try S3Service(
            configuration: configuration(
                endpoint: endpoint, bucket: bucket, root: root, pageSize: pageSize,
                abandonedUploadAge: abandonedUploadAge),
            credentials: credentials,
            logger: logger
        )
        try await createBucket(service)
        try await service.ensureVersioning()
        return service
    }

    /// A bucket name unique to one test.
    static func uniqueBucket(_ label: String) -> String {
        "stratus-\(label)-" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
    }
}
