import Foundation
import StratusTestSupport
import SyncSimulation
import Testing

/// The adversarial simulation's CI sweep: a few seeds on every backend, each a random schedule
/// of saves, deletes, concurrent and automatic syncs, kills, offline stretches and faults,
/// checked by the history checker. Longer than most tests (about a minute on two cores); the
/// bounds are generous so a busy machine passes. `stratus-sync-sim soak` runs it for longer.
@Suite struct SimulationSweepTests {
    static let seeds: [UInt64] = [11, 12]

    @Test(arguments: SimulationBackend.allCases)
    func adversarialSweepOfSeeds(_ backend: SimulationBackend) async throws {
        var saves = 0
        var faults = 0
        var checked = 0
        for seed in Self.seeds {
            let temporaryFolder = try TemporaryFolder(prefix: "stratus-sync-sweep")
            defer { temporaryFolder.remove() }
            let options = AdversarialSimulation.Options(
                devices: 3, rounds: 12, recordsPerType: 3, seed: seed, maximumFileSize: 3_000)
            let report = try await AdversarialSimulation.run(
                backend: backend, options: options, folder: temporaryFolder.url)
            if let reason = report.skipped {
                try SimulationSkip.record(backend, reason)
                return
            }
            // WebDAV's emulated change feed sometimes reports a document that is being rewritten
            // as deleted (seen on Apache, seed 12: "device-1's change feed reported
            // stratus-sync/records/tally/r2.json deleted"); a record can then leave a device.
            let known: Set<SimulationProblem.Promise> =
                backend == .webdav ? [.noPhantomDeletions, .noVanishing, .devicesConverge] : []
            #expect(
                report.problems.filter { !known.contains($0.promise) }.isEmpty, "\(backend), seed \(seed):\n\(report)")
            let phantoms = report.problems.filter { known.contains($0.promise) }
            withKnownIssue("WebDAV's change feed reports phantom deletions", isIntermittent: true) {
                #expect(phantoms.isEmpty, "\(backend), seed \(seed):\n\(report)")
            }
            saves += report.counts.saves
            faults += report.counts.faultsInjected
            checked +=
                report.counts.writesCurrentOrArchived + report.counts.writesInHistory + report.counts.unionWritesKept
        }
        #expect(saves > 40, "the schedules saved")
        #expect(faults > 0, "the schedules injected faults")
        #expect(checked > 10, "the checker found acknowledged writes")
    }
}

/// What a test does when a backend's server cannot start here: Ceph is best effort (a warning
/// with the reason); any other backend is a failure under `CI=true` and a warning elsewhere.
enum SimulationSkip {
    static func record(_ backend: SimulationBackend, _ reason: String) throws {
        let ci = ProcessInfo.processInfo.environment["CI"]?.lowercased() == "true"
        if ci && backend != .ceph {
            Issue.record("\(backend) could not run under CI: \(reason)")
        } else {
            Issue.record("Skipped \(backend): \(reason)", severity: .warning)
        }
    }
}
