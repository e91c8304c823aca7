import Foundation
import StratusContract
import StratusTestSupport
import Testing

/// The contract suite's options for every S3 server: parts are 256 KiB (the servers are told to
/// accept them; S3 asks for 5 MiB) and single uploads stop at 512 KiB, so multipart uploads are
/// exercised by every file above that. The racing writers send 512 KiB bodies, single PUTs
/// with `If-None-Match`/`If-Match` (the adapter sends a conditional upload as one PutObject
/// anyway where the server does not check the condition on CompleteMultipartUpload).
enum S3ContractOptions {
    static let standard = ContractSuite.Options(
        largestRoundTrip: 4 * 1_048_576,
        cancellationContentSize: 2 * 1_048_576,
        concurrentUploads: 8,
        racingContentSize: 512 * 1024
    )
}

/// The shared contract suite against moto's S3: one server for the process, a bucket of its own
/// for each check (with versioning turned on by the adapter), the server's conditional writes
/// measured before the check starts (moto honours them: `atomic`).
@Test(
    .enabled(if: MotoServer.shouldRun, MotoServer.skipReason),
    arguments: ContractSuite(options: S3ContractOptions.standard) { context in
        let service = try await MotoServer.makeService(
            bucket: "stratus-\(context.id)", pageSize: context.changePageSize)
        _ = try await service.conditionSupport()
        return service
    }.checks
)
func motoContract(_ check: ContractCheck) async throws {
    try await check.runRecordingSkip()
}
