import Foundation
import StratusSync
import StratusTestSupport
import SyncSimulation
import Synchronization
import Testing

/// The multi-device simulation at a small size on `local` and the Dropbox, Drive and OneDrive
/// mocks (with 503s injected while the devices work); `stratus-sync-sim` runs it larger.
@Suite struct SimulationTests {
    @Test(arguments: [SimulationRemote.local, .dropbox, .drive, .onedrive])
    func devicesConvergeAndNoWriteIsLost(_ remote: SimulationRemote) async throws {
        let temporaryFolder = try TemporaryFolder(prefix: "stratus-sync-sim")
        defer { temporaryFolder.remove() }
        let folder = temporaryFolder.url
        let options = SyncSimulation.Options(
            devices: 3, rounds: 10, recordsPerType: 4, seed: 42, maximumFileSize: 4_000)
        let box = ReportBox()
        try await remote.withService(folder: folder, faultChance: 0.2, seed: 42) { service, faults in
            box.set(try await SyncSimulation.run(service: service, folder: folder, options: options, faults: faults))
        }
        let report = try #require(box.get())
        #expect(report.problems.isEmpty, "\(report)")
        #expect(report.edits > 20)
        #expect(report.recordsCompared > 0)
        #expect(report.writesCurrentOrArchived + report.writesInHistory > 10)
        #expect(report.conflictsResolvedByPolicies + report.conflictsResolvedByUsers > 0, "the run made conflicts")
    }
}

/// Carries a report out of a sendable closure.
final class ReportBox: Sendable {
    private let value = Mutex<SyncSimulation.Report?>(nil)
    func set(_ report: SyncSimulation.Report) { value.withLock { $0 = report } }
    func get() -> SyncSimulation.Report? { value.withLock { $0 } }
}
