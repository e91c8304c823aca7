import Foundation
import StratusContract
import StratusDrive
import Testing

/// The shared contract suite against the mock Drive, rooted at the application data folder:
/// each check gets its own mock server. Chunks are 256 KiB (the smallest Drive allows) and
/// single uploads stop at 64 KiB, so resumable sessions are exercised by every file above
/// 64 KiB; the change feed's page size is the suite's (4). In the application data folder a
/// delete is permanent and Drive reports each file once, at its newest change, so the adapter
/// declares an emulated feed there (the net change between polls) and the suite checks that
/// promise. Cancellations move 4 MiB (16 chunks); a download from the loopback mock sometimes
/// arrives whole between two of curl's progress calls, which the suite's download check
/// retries before calling it inconclusive.
@Test(
    arguments: ContractSuite(
        options: ContractSuite.Options(
            largestRoundTrip: 4 * 1_048_576,
            cancellationContentSize: 4 * 1_048_576,
            concurrentUploads: 8
        )
    ) { context in
        guard let fixture = MockFixture.current else {
            throw CancellationError()
        }
        return try fixture.makeService(root: .appDataFolder, pageSize: context.changePageSize)
    }.checks)
func mockContractAppData(_ check: ContractCheck) async throws {
    try await MockFixture.withRunning { fixture in
        try await MockFixture.$current.withValue(fixture) {
            if case .skipped(let reason) = try await check.run() {
                Issue.record("Skipped: \(reason)", severity: .warning)
            }
        }
    }
}

/// The contract suite again, rooted at a folder in My Drive (created on the first write, named
/// after the check), where a delete moves the file to the trash.
@Test(
    arguments: ContractSuite(
        options: ContractSuite.Options(
            largestRoundTrip: 4 * 1_048_576,
            cancellationContentSize: 4 * 1_048_576,
            concurrentUploads: 8
        )
    ) { context in
        guard let fixture = MockFixture.current else {
            throw CancellationError()
        }
        return try fixture.makeService(
            root: .folder("Stratus/contract-\(context.id)"), pageSize: context.changePageSize)
    }.checks)
func mockContractMyDrive(_ check: ContractCheck) async throws {
    try await MockFixture.withRunning { fixture in
        try await MockFixture.$current.withValue(fixture) {
            if case .skipped(let reason) = try await check.run() {
                Issue.record("Skipped: \(reason)", severity: .warning)
            }
        }
    }
}
