import Foundation
import StratusContract
import Testing

/// The shared contract suite against moto's S3: one server for the process, a bucket of its own
/// for each check (with versioning turned on by the adapter). Parts are 256 KiB (moto is told to
/// accept them; S3 asks for 5 MiB) and single uploads stop at 512 KiB, so multipart uploads are
/// exercised by every file above that. The racing writers send 512 KiB bodies, single PUTs
/// with `If-None-Match`/`If-Match`: moto checks the condition of a `CompleteMultipartUpload`
/// apart from the write (two of eight racing completions succeeded in a direct test with
/// boto3), which S3 itself does not, so multipart races would test moto, not the adapter.
@Test(
    .enabled(if: MotoServer.shouldRun, MotoServer.skipReason),
    arguments: ContractSuite(
        options: ContractSuite.Options(
            largestRoundTrip: 4 * 1_048_576,
            cancellationContentSize: 2 * 1_048_576,
            concurrentUploads: 8,
            racingContentSize: 512 * 1024
        )
    ) { context in
        try await MotoServer.makeService(bucket: "stratus-\(context.id)", pageSize: context.changePageSize)
    }.checks
)
func motoContract(_ check: ContractCheck) async throws {
    if case .skipped(let reason) = try await check.run() {
        Issue.record("Skipped: \(reason)", severity: .warning)
    }
}
