import ArgumentParser
import Foundation
import Stratus
import StratusLocal
import StratusSync
import SyncSimulation
import Synchronization

/// `stratus-sync-sim`: the multi-device simulation of StratusSync, and the child process the
/// crash tests kill.
@main
struct SyncSimCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stratus-sync-sim",
        abstract: "Runs seeded multi-device sync simulations and prints what they checked.",
        subcommands: [Run.self, CrashChild.self],
        defaultSubcommand: Run.self
    )
}

/// Runs the simulation on one or more remotes.
struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Several devices edit, delete, go offline and sync under faults; then every promise is checked."
    )

    @Option(
        name: .customLong("remote"),
        help: "local, dropbox, drive, onedrive or s3 (repeat for several; default all of them).")
    var remotes: [String] = []
    @Option(help: "How many devices.") var devices = 5
    @Option(help: "How many rounds of random activity.") var rounds = 60
    @Option(help: "How many records of each type.") var records = 10
    @Option(help: "The seed (the same seed repeats a run).") var seed: UInt64 = 1
    @Option(help: "The chance that a mock answers a request with 503 during the random phase.") var faults = 0.05
    @Option(help: "How many seeds to run, from --seed on.") var runs = 1

    mutating func run() async throws {
        let chosen =
            remotes.isEmpty
            ? SimulationRemote.allCases
            : try remotes.map { name in
                guard let remote = SimulationRemote(rawValue: name) else {
                    throw ValidationError("Unknown remote \(name); use local, dropbox, drive, onedrive or s3.")
                }
                return remote
            }
        var failed = false
        for remote in chosen {
            for offset in 0..<UInt64(max(1, runs)) {
                let options = SyncSimulation.Options(
                    devices: devices, rounds: rounds, recordsPerType: records, seed: seed &+ offset)
                let folder = FileManager.default.temporaryDirectory.appending(
                    path: "stratus-sync-sim-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(at: folder) }
                let started = ContinuousClock.now
                let result = ResultBox()
                try await remote.withService(folder: folder, faultChance: faults, seed: options.seed) {
                    service, faultSwitch in
                    result.report = try await SyncSimulation.run(
                        service: service, folder: folder, options: options, faults: faultSwitch)
                }
                guard let report = result.report else { continue }
                print(
                    "== \(remote.rawValue), seed \(options.seed): \(devices) devices, \(rounds) rounds, \(records) records per type, faults \(remote == .local ? 0 : faults) (\(ContinuousClock.now - started))"
                )
                print(report)
                failed = failed || !report.problems.isEmpty
            }
        }
        if failed { throw ExitCode(1) }
    }
}

/// Holds a report across the service's closure.
final class ResultBox: Sendable {
    private let value = Mutex<SyncSimulation.Report?>(nil)
    var report: SyncSimulation.Report? {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
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
