import Foundation
import StratusContract
import StratusDrive
import StratusTestSupport
import Testing

/// Where the contract suite runs against the mock Drive.
enum DriveContractRoot: String, CaseIterable, Sendable {
    /// The application data folder. A delete there is permanent and Drive reports each file
    /// once, at its newest change, so the adapter declares an emulated feed (the net change
    /// between polls) and the suite checks that promise.
    case appData
    /// A folder in My Drive (created on the first write, named after the check), where a delete
    /// moves the file to the trash.
    case myDrive

    /// The suite in this root. Chunks are 256 KiB (the smallest Drive allows) and single uploads
    /// stop at 64 KiB, so resumable sessions are exercised by every file above 64 KiB; the change
    /// feed's page size is the suite's (4). Cancellations move 4 MiB (16 chunks); a download
    /// from the loopback mock sometimes arrives whole between two of curl's progress calls,
    /// which the suite's download check retries before calling it inconclusive.
    var suite: ContractSuite {
        ContractSuite(
            options: ContractSuite.Options(
                largestRoundTrip: 4 * 1_048_576, cancellationContentSize: 4 * 1_048_576, concurrentUploads: 8)
        ) { [self] context in
            let root: DriveRoot = self == .appData ? .appDataFolder : .folder("Stratus/contract-\(context.id)")
            return try RunningFixture.current(MockFixture.self).makeService(
                root: root, pageSize: context.changePageSize,
                stateFolder: context.scratchDirectory.appending(path: "state", directoryHint: .isDirectory))
        }
    }

}

/// The shared contract suite against the mock Drive, in each root: each check gets its own mock
/// server.
@Test(arguments: contractChecks(in: DriveContractRoot.allCases, suite: \.suite))
func mockContract(_ root: DriveContractRoot, _ check: ContractCheck) async throws {
    try await MockFixture.withRunning { fixture in
        try await check.runRecordingSkip(with: fixture)
    }
}
