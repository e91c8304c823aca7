import Foundation
import MockOneDrive
import StratusContract
import StratusOneDrive
import StratusTestSupport
import Testing

/// How the contract suite runs against the mock Graph. Fragments are 320 KiB (Graph's unit) and
/// simple uploads stop at 64 KiB, so upload sessions are exercised by every file above 64 KiB;
/// the delta page size is the suite's. Custom metadata is skipped by the suite's own rule: the
/// adapter declares it unsupported (Graph keeps none for personal OneDrive files).
enum OneDriveContractRun: String, CaseIterable, Sendable {
    /// In the app folder.
    case appFolder
    /// Rooted at a folder of the drive (made on first use, named after the check).
    case driveFolder
    /// In the app folder with the mock's eTag drift on (each item's eTag changes once more after
    /// an upload, as OneDrive's post-processing does): preconditions, versions and races must
    /// hold as they do without it, since writes are conditioned on the cTag.
    case eTagDrift

    /// The mock's options for this run.
    var mockOptions: MockOneDriveServer.Options {
        MockOneDriveServer.Options(eTagDriftAfterUpload: self == .eTagDrift)
    }

    /// The suite of this run.
    var suite: ContractSuite {
        ContractSuite(
            options: ContractSuite.Options(
                largestRoundTrip: self == .eTagDrift ? 1_048_576 : 4 * 1_048_576,
                cancellationContentSize: 4 * 1_048_576, concurrentUploads: 8)
        ) { [self] context in
            let root: OneDriveRoot = self == .driveFolder ? .folder("Stratus/contract-\(context.id)") : .appFolder
            return try RunningFixture.current(MockFixture.self).makeService(
                root: root, pageSize: context.changePageSize,
                stateFolder: context.scratchDirectory.appending(path: "state", directoryHint: .isDirectory))
        }
    }

}

/// The shared contract suite against the mock Graph, in each run: each check gets its own mock.
@Test(arguments: contractChecks(in: OneDriveContractRun.allCases, suite: \.suite))
func mockContract(_ run: OneDriveContractRun, _ check: ContractCheck) async throws {
    try await MockFixture.withRunning(options: run.mockOptions) { fixture in
        try await check.runRecordingSkip(with: fixture)
    }
}
