import Foundation
import Stratus
import StratusSync

/// An adversarial multi-device run of ``StratusSync``: devices save, delete, sync at once, run
/// automatic sync, get killed mid-sync and reopened, go offline for long stretches, while the
/// mock's fault rules and each device's ``AdversarialService`` inject late answers, 5xx, 429,
/// lost answers, re-read change pages, listings that leave documents out and downloads that
/// answer 404. Every step is seeded. Then the faults stop, the devices sync until quiet, and the
/// history checker (``SimulationLedger``, ``HistoryChecker``) holds the sync layer to its
/// promises (``SimulationProblem/Promise``), naming the seed and the first failing step.
///
/// Clock skew is not simulated: a ``StratusSync/SyncStore`` takes no clock (it stamps records
/// with the system's time), so devices cannot be given clocks of their own.
public enum AdversarialSimulation {
    /// The size, seed and roughness of a random run.
    public struct Options: Sendable {
        /// How many devices.
        public var devices: Int
        /// How many rounds of activity.
        public var rounds: Int
        /// How many records of each type.
        public var recordsPerType: Int
        /// The seed of the schedule and of every fault draw.
        public var seed: UInt64
        /// How stormy the weather is (1 the default mix, 0 no faults).
        public var faultLevel: Double
        /// The chance a device goes offline (for 3 to 12 rounds) in a round.
        public var offlineChance: Double
        /// The chance a round kills a device mid-sync.
        public var killChance: Double
        /// The share of devices that start with automatic sync.
        public var automaticShare: Double
        /// The chance a save attaches a file.
        public var fileChance: Double
        /// The largest file, in bytes.
        public var maximumFileSize: Int
        /// Kinds of fault that never strike in this run. By default listings never omit
        /// documents: a listing that loses an old document is a lie no engine can see through
        /// (its change feed never mentions the document again), so it only makes devices diverge.
        public var excludedFaults: Set<FaultKind>

        /// Creates options.
        public init(
            devices: Int = 3, rounds: Int = 30, recordsPerType: Int = 4, seed: UInt64 = 1, faultLevel: Double = 1,
            offlineChance: Double = 0.05, killChance: Double = 0.08, automaticShare: Double = 0.5,
            fileChance: Double = 0.2, maximumFileSize: Int = 8_000, excludedFaults: Set<FaultKind> = [.listingOmission]
        ) {
            self.devices = devices
            self.rounds = rounds
            self.recordsPerType = recordsPerType
            self.seed = seed
            self.faultLevel = faultLevel
            self.offlineChance = offlineChance
            self.killChance = killChance
            self.automaticShare = automaticShare
            self.fileChance = fileChance
            self.maximumFileSize = maximumFileSize
            self.excludedFaults = excludedFaults
        }
    }

    /// What one run did and found.
    public struct Report: Sendable, CustomStringConvertible {
        /// The backend.
        public var backend: SimulationBackend
        /// The seed.
        public var seed: UInt64
        /// The steps run, the quiet phase included.
        public var steps = 0
        /// What was done and checked.
        public var counts = SimulationCounts()
        /// Every broken promise; empty when the run passed.
        public var problems: [SimulationProblem] = []
        /// Why the run did not happen (the backend's server could not start), or `nil`.
        public var skipped: String?

        /// Whether the run happened and found nothing broken.
        public var passed: Bool { skipped == nil && problems.isEmpty }

        /// The counts, then PASS, SKIPPED or FAIL with the first 20 problems.
        public var description: String {
            if let skipped { return "skipped: \(skipped)" }
            let verdict =
                problems.isEmpty
                ? "result: PASS" : "result: FAIL\n" + problems.prefix(20).map(\.description).joined(separator: "\n")
            return "\(steps) steps\n\(counts.summary)\n\(verdict)"
        }
    }

    /// Runs a random schedule (``SimulationSchedule/random(_:)``) on a backend.
    /// - Parameters:
    ///   - backend: The backend, started for the run.
    ///   - options: The size and seed.
    ///   - folder: A folder of the caller's for the stores (not removed).
    /// - Returns: The report; ``Report/skipped`` says why when the backend cannot run here.
    /// - Throws: When the run itself cannot be set up (a store's folder, a backend that fails
    ///   unexpectedly).
    public static func run(backend: SimulationBackend, options: Options, folder: URL) async throws -> Report {
        try await run(
            backend: backend, steps: SimulationSchedule.random(options), devices: options.devices, seed: options.seed,
            folder: folder, maximumFileSize: options.maximumFileSize)
    }

    /// Runs given steps on a backend, then the quiet phase and the checks.
    /// - Parameters:
    ///   - backend: The backend, started for the run.
    ///   - steps: The schedule.
    ///   - devices: How many devices.
    ///   - seed: The seed of the fault draws and of the users' choices.
    ///   - folder: A folder of the caller's for the stores (not removed).
    ///   - maximumFileSize: The largest file a save attaches.
    /// - Returns: The report.
    /// - Throws: When the run cannot be set up.
    public static func run(
        backend: SimulationBackend, steps: [SimulationStep], devices: Int, seed: UInt64, folder: URL,
        maximumFileSize: Int = 8_000
    ) async throws -> Report {
        let box = RunReportBox()
        do {
            try await backend.withSession(folder: folder) { session in
                let runner = try StepRunner(
                    session: session, devices: devices, seed: seed, folder: folder, maximumFileSize: maximumFileSize)
                var report = try await runner.run(steps)
                report.backend = backend
                box.set(report)
            }
        } catch let unavailable as SimulationBackend.Unavailable {
            return Report(backend: backend, seed: seed, skipped: unavailable.reason)
        }
        guard let report = box.get() else {
            return Report(backend: backend, seed: seed, skipped: "the backend's session ended without a run")
        }
        return report
    }
}
