import Foundation
import Stratus
import StratusSync

/// The re-read deletions case: most record documents are deleted by hand on the remote, so a
/// sync stops at the mass-deletion rail without saving its change token; the next sync reads
/// the same change page again and must see the same deletions (and stop again), until the app
/// accepts them; then the device holds exactly what the remote holds.
public enum DeletionRereadScenario {
    /// Runs the case on a backend.
    /// - Parameters:
    ///   - backend: The backend, started for the run.
    ///   - records: How many records the device holds.
    ///   - deleted: How many of their documents are deleted by hand (more than half, and more
    ///     than five, so the rail stops the sync).
    ///   - folder: A folder of the caller's for the store (not removed).
    /// - Returns: The report: its problems name the step that broke a promise.
    /// - Throws: When the run cannot be set up.
    public static func run(backend: SimulationBackend, records: Int = 10, deleted: Int = 8, folder: URL) async throws
        -> AdversarialSimulation.Report
    {
        let box = RunReportBox()
        do {
            try await backend.withSession(folder: folder) { session in
                var report = try await run(
                    service: session.service, records: records, deleted: deleted, folder: folder)
                report.backend = backend
                box.set(report)
            }
        } catch let unavailable as SimulationBackend.Unavailable {
            return AdversarialSimulation.Report(backend: backend, seed: 0, skipped: unavailable.reason)
        }
        return box.get() ?? AdversarialSimulation.Report(backend: backend, seed: 0, skipped: "no run")
    }

    private static func run(service: any Service, records: Int, deleted: Int, folder: URL) async throws
        -> AdversarialSimulation.Report
    {
        var report = AdversarialSimulation.Report(backend: .local, seed: 0)
        let store = try SyncStore(
            folder: folder.appending(path: "device-0", directoryHint: .isDirectory), service: service,
            configuration: SyncConfiguration(deviceName: "device-0"))
        let keys = try (0..<records).map { try RecordKey(type: "profile", id: "r\($0)") }
        for (index, key) in keys.enumerated() {
            try store.save(SimulationValues.Write(write: "device-0-w\(index + 1)", level: index), as: key)
            report.counts.saves += 1
        }
        var step = 0
        func problem(_ promise: SimulationProblem.Promise, _ what: String, _ detail: String) {
            report.problems.append(
                SimulationProblem(promise: promise, seed: 0, step: step, stepDescription: what, detail: detail))
        }
        try await store.sync()
        report.counts.explicitSyncs += 1
        step += 1
        let gone = Array(keys.prefix(deleted))
        for key in gone {
            try await service.delete(RemotePath("stratus-sync/records/profile/\(key.id).json"))
        }
        step += 1
        // The first sync and the one after it must both stop at the rail: the page that told of
        // the deletions is read again, since the first never saved its token.
        for attempt in ["the first sync after the deletions", "the sync after the rail stopped one"] {
            report.counts.explicitSyncs += 1
            do {
                try await store.sync()
                let kept = try gone.filter { try store.record($0) != nil }.count
                if kept == 0 {
                    problem(
                        .noVanishing, attempt,
                        "the sync removed \(deleted) of \(records) records without the mass-deletion rail")
                } else {
                    problem(
                        .deletionsStayReported, attempt,
                        "the sync ended without the rail and without the deletions: the device keeps \(kept) records the remote no longer has"
                    )
                }
                break
            } catch let error as SyncError where error.code == .massDeletion {
                report.counts.safetyRails += 1
            }
            step += 1
        }
        try store.acceptRemoteDeletions()
        report.counts.explicitSyncs += 1
        try await store.sync()
        let left = try store.records(ofType: "profile").map(\.key)
        // What the remote holds, listed, not assumed.
        let expected = try await service.list(RemotePath("stratus-sync/records/profile")).compactMap { file in
            file.path.name.hasSuffix(".json")
                ? try? RecordKey(type: "profile", id: String(file.path.name.dropLast(5))) : nil
        }
        if Set(left) != Set(expected) {
            problem(
                .devicesConverge, "the sync after the app accepted the deletions",
                "the device holds \(left.count) records, the remote \(expected.count): \(Set(left).symmetricDifference(expected).map(\.description).sorted().prefix(5))"
            )
        }
        report.steps = step + 1
        report.counts.syncRuns = report.counts.explicitSyncs
        return report
    }
}
