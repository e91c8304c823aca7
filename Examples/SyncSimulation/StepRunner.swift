import Foundation
import Stratus
import StratusSync
import Synchronization

/// Carries a run's report out of a backend's sendable closure.
final class RunReportBox: Sendable {
    private let value = Mutex<AdversarialSimulation.Report?>(nil)
    func set(_ report: AdversarialSimulation.Report) { value.withLock { $0 = report } }
    func get() -> AdversarialSimulation.Report? { value.withLock { $0 } }
}

/// Runs one schedule on one running backend: the steps, each watched by the ledger, then the
/// quiet phase (faults off, everyone online, syncs and users' resolutions until nothing moves),
/// then the history checker.
final class StepRunner {
    private let session: SimulationBackend.Session
    private let devices: [AdversarialDevice]
    private let seed: UInt64
    private let maximumFileSize: Int
    private var random: SeededGenerator
    private var ledger: SimulationLedger
    private var counts = SimulationCounts()
    private var step = 0
    /// The error of each device's last quiet-phase sync, if it threw.
    private var quietErrors: [Int: String] = [:]
    /// The outcomes of the last sync step.
    private var lastOutcomes: [Result<SyncReport, any Error>] = []

    init(session: SimulationBackend.Session, devices count: Int, seed: UInt64, folder: URL, maximumFileSize: Int) throws
    {
        self.session = session
        self.seed = seed
        self.maximumFileSize = maximumFileSize
        random = SeededGenerator(seed: seed)
        ledger = SimulationLedger(seed: seed)
        var seeds = SeededGenerator(seed: seed ^ 0xDE71CE)
        devices = try (0..<max(1, count)).map { index in
            try AdversarialDevice(
                index: index, folder: folder,
                service: AdversarialService(
                    session.service, seed: seeds.next(), handlesWireFaults: session.wire == nil))
        }
    }

    /// Runs the steps, the quiet phase and the checks.
    func run(_ steps: [SimulationStep]) async throws -> AdversarialSimulation.Report {
        for planned in steps { try await perform(planned) }
        try await perform(.weather(.calm))
        for device in devices {
            if device.service.isOffline { try await perform(.offline(device: device.index, on: false)) }
            if device.isAutomatic { try await perform(.automatic(device: device.index, on: false)) }
        }
        var quiet = false
        for _ in 0..<15 where !quiet {
            quiet = true
            for device in devices {
                if try await syncMoved(device) { quiet = false }
                if try !device.store.conflicts().isEmpty {
                    try await perform(.resolveConflicts(device: device.index))
                    quiet = false
                }
            }
        }
        if !quiet {
            let errors = quietErrors.sorted { $0.key < $1.key }.map { "device-\($0.key): \($0.value)" }
            ledger.report(
                .syncSettles, step: step - 1,
                "the devices still moved records after 15 rounds of quiet syncs"
                    + (errors.isEmpty ? "" : "; their last syncs threw: " + errors.joined(separator: "; ")))
        }
        for device in devices { await device.finish() }
        counts.syncRuns = devices.map(\.runs.count).reduce(0, +)
        counts.wireFaults = session.wire?.injectedCount ?? 0
        for device in devices { counts.serviceFaults.merge(device.service.injected, uniquingKeysWith: +) }
        counts.transientUnionShrinks = ledger.transientUnionShrinks
        var checker = HistoryChecker(devices: devices, ledger: ledger, service: session.service, counts: counts)
        try await checker.check()
        return AdversarialSimulation.Report(
            backend: .local, seed: seed, steps: step, counts: checker.counts, problems: checker.problems)
    }

    /// One quiet-phase sync of a device, as a step.
    /// - Returns: Whether it moved anything or failed.
    private func syncMoved(_ device: AdversarialDevice) async throws -> Bool {
        try await perform(.sync([device.index]))
        quietErrors[device.index] = nil
        if case .failure(let error) = lastOutcomes.first { quietErrors[device.index] = "\(error)" }
        guard case .success(let report) = lastOutcomes.first else { return true }
        return !report.pulled.isEmpty || !report.pushed.isEmpty || !report.resolved.isEmpty
            || !report.failures.isEmpty || !report.conflicts.isEmpty
    }

    /// Runs one step, then lets the ledger look at every device.
    private func perform(_ planned: SimulationStep) async throws {
        ledger.describe(step: step, as: planned.description)
        switch planned {
        case .save(let index, let type, let record, let withFile):
            let key = try RecordKey(type: type, id: "r\(record)")
            let write = try devices[index].save(
                key, withFile: withFile, random: &random, maximumFileSize: maximumFileSize)
            ledger.acknowledge(step: step, device: index, key: key, write: write)
            counts.saves += 1
        case .delete(let index, let type, let record):
            let key = try RecordKey(type: type, id: "r\(record)")
            if type != "tally", try devices[index].store.record(key) != nil {
                try devices[index].store.delete(key)
                ledger.acknowledge(step: step, device: index, key: key, write: nil)
                counts.deletes += 1
            }
        case .sync(let indices):
            lastOutcomes = try await syncAtOnce(indices)
        case .automatic(let index, let on):
            if on {
                devices[index].startAutomatic()
                counts.automaticStarts += 1
            } else {
                await devices[index].stopAutomatic()
            }
        case .kill(let index, let milliseconds):
            try await devices[index].kill(afterMilliseconds: milliseconds)
            counts.kills += 1
        case .offline(let index, let on):
            if on, !devices[index].service.isOffline { counts.offlineStretches += 1 }
            devices[index].service.isOffline = on
        case .weather(let weather):
            session.wire?.apply(weather, seed: seed &+ UInt64(step))
            for device in devices { device.service.weather = weather }
        case .pause(let milliseconds):
            try? await Task.sleep(for: .milliseconds(milliseconds))
        case .resolveConflicts(let index):
            try resolveConflicts(devices[index])
        case .acceptRemoteDeletions(let index):
            try devices[index].store.acceptRemoteDeletions()
        case .removeDocument(let type, let record):
            ledger.documentsRemovedByHand = true
            try await session.service.delete(RemotePath("stratus-sync/records/\(type)/r\(record).json"))
        }
        for device in devices {
            try ledger.observe(
                step: step, device: device.index, name: device.name, store: device.store,
                impurePages: device.service.impurePages, documentDeletions: device.service.documentDeletions)
        }
        step += 1
    }

    /// Runs `sync()` on these devices at once.
    private func syncAtOnce(_ indices: [Int]) async throws -> [Result<SyncReport, any Error>] {
        let stores = indices.map { devices[$0].store }
        let outcomes = await withTaskGroup(of: (Int, Result<SyncReport, any Error>).self) { group in
            for (slot, store) in stores.enumerated() {
                group.addTask {
                    do { return (slot, .success(try await store.sync())) } catch { return (slot, .failure(error)) }
                }
            }
            var outcomes: [(Int, Result<SyncReport, any Error>)] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes.sorted { $0.0 < $1.0 }.map(\.1)
        }
        counts.explicitSyncs += outcomes.count
        for outcome in outcomes {
            guard case .failure(let error) = outcome else { continue }
            counts.failedSyncs += 1
            if let error = error as? SyncError, error.code == .massDeletion { counts.safetyRails += 1 }
        }
        return outcomes
    }

    /// Resolves a device's conflicts as a user would: keep this side, take the other, or write
    /// a new value (for a union record, the union of both sides and one new id).
    private func resolveConflicts(_ device: AdversarialDevice) throws {
        for conflict in try device.store.conflicts() {
            let key = conflict.key
            if key.type == "tally" {
                let write = device.nextWrite()
                let union = SimulationValues.tally(of: conflict.local).union(
                    SimulationValues.tally(of: conflict.remote))
                try device.store.resolve(
                    key,
                    with: .merged(
                        JSONValue(encoding: SimulationValues.Tally(writes: union.union([write]).sorted())), files: nil))
                ledger.acknowledge(step: step, device: device.index, key: key, write: write)
            } else {
                switch Int.random(in: 0..<3, using: &random) {
                case 0: try device.store.resolve(key, with: .keepLocal)
                case 1: try device.store.resolve(key, with: .keepRemote)
                default:
                    let write = device.nextWrite()
                    try device.store.resolve(
                        key,
                        with: .merged(JSONValue(encoding: SimulationValues.Write(write: write, level: 0)), files: nil))
                    ledger.acknowledge(step: step, device: device.index, key: key, write: write)
                }
            }
            counts.conflictsResolvedByUsers += 1
        }
    }
}
