import Foundation
import StratusContract
import StratusTestSupport
import Testing

/// The shared contract suite against the mock Dropbox: each check gets its own mock server.
/// Chunks are 4 MiB (the smallest Dropbox allows) and single uploads stop at 64 KiB, so
/// sessions are exercised by every file above 64 KiB.
@Test(
    arguments: ContractSuite(
        options: ContractSuite.Options(
            largestRoundTrip: 16 * 1_048_576,
            cancellationContentSize: 16 * 1_048_576,
            concurrentUploads: 8,
            excludedChecks: [
                "versions: the same bytes written twice are two versions":
                    "Dropbox (and the mock) keep the current revision when identical content is uploaded again; no new version is made."
            ]
        )
    ) { context in
        try RunningFixture.current(MockFixture.self).makeService(
            root: "/contract-\(context.id)", pageSize: context.changePageSize)
    }.checks)
func mockContract(_ check: ContractCheck) async throws {
    try await MockFixture.withRunning { fixture in
        try await check.runRecordingSkip(with: fixture)
    }
}
