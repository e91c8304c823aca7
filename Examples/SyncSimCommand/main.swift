import ArgumentParser
import Foundation
import Stratus
import StratusLocal
import StratusSync
import SyncSimulation

/// `stratus-sync-sim`: the multi-device simulation of StratusSync, and the child process the
/// crash tests kill.
@main
struct SyncSimCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stratus-sync-sim",
        abstract: "Runs seeded multi-device sync simulations and prints what they checked.",
        subcommands: [Run.self, Soak.self, CrashChild.self],
        defaultSubcommand: Run.self
    )
}

/// Runs the adversarial simulation on one or more backends, for some seeds.
struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract:
            "Devices save, delete, sync at once and automatically, get killed, go offline, under seeded faults; then the history checker."
    )

    @OptionGroup var shape: SimulationShape
    @Option(help: "The first seed (the same seed repeats a schedule).") var seed: UInt64 = 1
    @Option(help: "How many seeds to run, from --seed on.") var runs = 1
    @Flag(help: "Print each seed's planned steps, numbered, before its run.") var showSchedule = false
    @Option(
        help:
            "A focused scenario instead of random schedules: racing-union-writers (requests held), racing-union-answers (answers held), vanishing-revisions(-accepted), vanishing-revision (one record) or deletion-reread."
    )
    var scenario: String?

    mutating func run() async throws {
        var failed = false
        for backend in try shape.backends() {
            var total = SimulationCounts()
            var problems = 0
            for offset in 0..<UInt64(max(1, runs)) {
                if showSchedule, scenario == nil {
                    let planned = SimulationSchedule.random(shape.options(seed: seed &+ offset))
                    for (number, step) in planned.enumerated() { say("\(number): \(step)") }
                }
                let report = try await shape.runOnce(backend, seed: seed &+ offset, scenario: scenario)
                say(
                    "== \(backend), seed \(report.report.seed): \(shape.describe(scenario: scenario)) (\(report.elapsed))"
                )
                say("\(report.report)")
                total.add(report.report.counts)
                problems += report.report.problems.count
                failed = failed || !report.report.problems.isEmpty
            }
            say(
                "== \(backend) total: \(total.operations) simulated operations, \(problems) problems, \(total.saves) acknowledged saves"
            )
        }
        if failed { throw ExitCode(1) }
    }
}

/// Runs random schedules on a backend, seed after seed, for a number of minutes.
struct Soak: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak",
        abstract: "Runs seed after seed for a while and prints the operations, the problems and their seeds."
    )

    @OptionGroup var shape: SimulationShape
    @Option(help: "How long to run, in minutes (per backend).") var minutes = 10.0
    @Option(help: "The first seed.") var seed: UInt64 = 1

    mutating func run() async throws {
        var failed = false
        for backend in try shape.backends() {
            let deadline = ContinuousClock.now + .seconds(minutes * 60)
            var total = SimulationCounts()
            var seeds: [UInt64] = []
            var failing: [UInt64: Int] = [:]
            var skipped: String?
            var next = seed
            while ContinuousClock.now < deadline {
                let report = try await shape.runOnce(backend, seed: next, scenario: nil).report
                if let reason = report.skipped {
                    skipped = reason
                    break
                }
                seeds.append(next)
                total.add(report.counts)
                if !report.problems.isEmpty {
                    failing[next] = report.problems.count
                    say("== \(backend), seed \(next): FAIL")
                    for problem in report.problems.prefix(10) { say("\(problem)") }
                }
                next &+= 1
            }
            if let skipped {
                say("== \(backend): skipped: \(skipped)")
                continue
            }
            say(
                "== \(backend) soak: \(seeds.count) seeds (\(seeds.first.map(String.init) ?? "-")...\(seeds.last.map(String.init) ?? "-")), \(shape.describe(scenario: nil))"
            )
            say(total.summary)
            say(
                "problems: \(failing.values.reduce(0, +)) in \(failing.count) seeds"
                    + (failing.isEmpty
                        ? "" : ": seeds " + failing.keys.sorted().map(String.init).joined(separator: ", ")))
            failed = failed || !failing.isEmpty
        }
        if failed { throw ExitCode(1) }
    }
}

/// Prints a line and flushes it, so a long run's output reaches a file or a pipe as it goes.
func say(_ text: String) {
    print(text)
    fflush(nil)
}

/// The options `run` and `soak` share: the backends and the size of a run.
struct SimulationShape: ParsableArguments {
    @Option(
        name: .customLong("remote"),
        help: "local, dropbox, drive, onedrive, s3, ceph or webdav (repeat for several; default all of them).")
    var remotes: [String] = []
    @Option(help: "How many devices.") var devices = 3
    @Option(help: "How many rounds of activity.") var rounds = 30
    @Option(help: "How many records of each type.") var records = 4
    @Option(help: "How rough the faults are: 1 the default mix, 0 none.") var faults = 1.0
    @Option(help: "The chance a round kills a device mid-sync.") var kills = 0.08
    @Option(
        help:
            "A kind of fault that must not strike: \(FaultKind.allCases.map(\.rawValue).joined(separator: ", ")) (repeat for several)."
    )
    var without: [String] = []
    @Flag(help: "Let listings leave documents out (off by default: devices then diverge by construction).")
    var listingOmissions = false

    func backends() throws -> [SimulationBackend] {
        if let unknown = without.first(where: { FaultKind(rawValue: $0) == nil }) {
            throw ValidationError(
                "Unknown fault kind \(unknown); use \(FaultKind.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        guard !remotes.isEmpty else { return SimulationBackend.allCases }
        return try remotes.map { name in
            guard let backend = SimulationBackend(rawValue: name) else {
                throw ValidationError(
                    "Unknown remote \(name); use \(SimulationBackend.allCases.map(\.rawValue).joined(separator: ", "))."
                )
            }
            return backend
        }
    }

    func describe(scenario: String?) -> String {
        scenario.map { "scenario \($0)" }
            ?? "\(devices) devices, \(rounds) rounds, \(records) records per type, faults \(faults), kills \(kills)"
            + (without.isEmpty ? "" : ", without \(without.joined(separator: ", "))")
    }

    /// The options of a random run with this seed.
    func options(seed: UInt64) -> AdversarialSimulation.Options {
        AdversarialSimulation.Options(
            devices: devices, rounds: rounds, recordsPerType: records, seed: seed, faultLevel: faults,
            killChance: kills,
            excludedFaults: Set(without.compactMap(FaultKind.init(rawValue:))).union(
                listingOmissions ? [] : [.listingOmission]))
    }

    /// One run in a temporary folder of its own.
    func runOnce(_ backend: SimulationBackend, seed: UInt64, scenario: String?) async throws -> (
        report: AdversarialSimulation.Report, elapsed: Duration
    ) {
        let folder = FileManager.default.temporaryDirectory.appending(path: "stratus-sync-sim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let started = ContinuousClock.now
        let report: AdversarialSimulation.Report
        switch scenario {
        case nil:
            report = try await AdversarialSimulation.run(backend: backend, options: options(seed: seed), folder: folder)
        case "racing-union-writers":
            report = try await AdversarialSimulation.run(
                backend: backend, steps: SimulationSchedule.racingUnionWriters(), devices: 2, seed: seed, folder: folder
            )
        case "racing-union-answers":
            report = try await AdversarialSimulation.run(
                backend: backend, steps: SimulationSchedule.racingUnionWriters(holdingAnswers: true), devices: 2,
                seed: seed,
                folder: folder)
        case "vanishing-revision":
            report = try await AdversarialSimulation.run(
                backend: backend, steps: SimulationSchedule.vanishingRevisions(records: 2), devices: 2, seed: seed,
                folder: folder)
        case "vanishing-revisions-accepted":
            report = try await AdversarialSimulation.run(
                backend: backend, steps: SimulationSchedule.vanishingRevisions(accepting: true), devices: 2, seed: seed,
                folder: folder)
        case "deletion-reread":
            report = try await DeletionRereadScenario.run(backend: backend, folder: folder)
        case "vanishing-revisions":
            report = try await AdversarialSimulation.run(
                backend: backend, steps: SimulationSchedule.vanishingRevisions(), devices: 2, seed: seed, folder: folder
            )
        case let other?:
            throw ValidationError(
                "Unknown scenario \(other); use racing-union-writers, racing-union-answers, vanishing-revisions(-accepted), vanishing-revision (one record) or deletion-reread."
            )
        }
        return (report, ContinuousClock.now - started)
    }
}

/// Syncs one device on a `local` remote and kills itself with SIGKILL at a named point.
struct CrashChild: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crash-child",
        abstract: "For the crash tests: sync a store and die with SIGKILL at a checkpoint.",
        shouldDisplay: false
    )

    @Option(help: "The store's folder.") var store: String
    @Option(help: "The local remote's root.") var remote: String
    @Option(help: "The device name.") var device: String
    @Option(help: "The checkpoint: \(SyncCheckpoint.allCases.map(\.rawValue).joined(separator: ", ")).") var at: String
    @Flag(help: "Sync with a running automatic sync instead of one sync() call.") var automatic = false

    mutating func run() async throws {
        guard let point = SyncCheckpoint(rawValue: at) else { throw ValidationError("Unknown checkpoint \(at).") }
        var configuration = SyncConfiguration(deviceName: device)
        configuration.checkpoint = { reached in
            if reached == point { kill(getpid(), SIGKILL) }
        }
        let syncStore = try SyncStore(
            folder: URL(filePath: store), service: LocalService(root: URL(filePath: remote)),
            configuration: configuration)
        if automatic {
            // Runs until the checkpoint kills the process; a minute without it is a failure.
            let running = Task { try await syncStore.automaticSync().run() }
            try await Task.sleep(for: .seconds(60))
            running.cancel()
            print("checkpoint \(at) was not reached within a minute of automatic sync")
            throw ExitCode(3)
        }
        let report = try await syncStore.sync()
        print(
            "checkpoint \(at) was not reached; sync finished: \(report.pushed.count) pushed, \(report.pulled.count) pulled"
        )
        throw ExitCode(3)
    }
}
