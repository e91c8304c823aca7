import Foundation
import Logging
import Stratus
import StratusSync
import Synchronization

/// One device of an adversarial run: its own way to the service (``AdversarialService``), a
/// store in its folder that can be killed and reopened, and an automatic sync that can run.
final class AdversarialDevice {
    /// Counts the sync runs a store starts, from its status.
    final class RunCounter: Sendable {
        private let runs = Mutex(0)
        var count: Int { runs.withLock { $0 } }
        func add() { runs.withLock { $0 += 1 } }
    }

    /// How automatic sync is scheduled in a run: quickly, so that it acts within the steps.
    static let automaticConfiguration = AutomaticSyncConfiguration(
        debounce: .milliseconds(50), maximumDelay: .milliseconds(500), waitTimeout: .seconds(2),
        firstRetry: .milliseconds(50), maximumRetry: .seconds(1), maximumOfflineRetry: .milliseconds(500))

    let index: Int
    let name: String
    let service: AdversarialService
    let runs = RunCounter()
    private let folder: URL
    private let inputs: URL
    private let configuration: SyncConfiguration
    private(set) var store: SyncStore
    private var automatic: Task<Void, Never>?
    private var watcher: Task<Void, Never>?
    private var counter = 0

    var isAutomatic: Bool { automatic != nil }

    init(index: Int, folder: URL, service: AdversarialService) throws {
        self.index = index
        name = "device-\(index)"
        self.service = service
        self.folder = folder.appending(path: name, directoryHint: .isDirectory)
        inputs = folder.appending(path: "\(name)-inputs", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        var logger = Logger(label: "StratusSync.\(name)")
        logger.logLevel = .warning
        configuration = SyncConfiguration(
            deviceName: name, policies: SimulationValues.policies, maximumConcurrentTransfers: 4, logger: logger)
        store = try SyncStore(folder: self.folder, service: service, configuration: configuration)
        watchRuns()
    }

    /// Counts the runs of the current store.
    private func watchRuns() {
        let updates = store.statusUpdates()
        let runs = runs
        watcher = Task {
            var syncing = false
            for await status in updates {
                if status.isSyncing, !syncing { runs.add() }
                syncing = status.isSyncing
            }
        }
    }

    /// A new write id of this device.
    func nextWrite() -> String {
        counter += 1
        return "\(name)-w\(counter)"
    }

    /// Saves a new write to a record: a new value, or one more id in a union record.
    /// - Returns: The write id saved.
    func save(_ key: RecordKey, withFile: Bool, random: inout SeededGenerator, maximumFileSize: Int) throws -> String {
        let write = nextWrite()
        var files: [String: URL]?
        if withFile {
            let size = Int.random(in: 0...maximumFileSize, using: &random)
            var bytes = [UInt8](repeating: 0, count: size)
            for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255, using: &random) }
            let file = inputs.appending(path: write)
            try Data(bytes).write(to: file)
            files = ["content": file]
        }
        if key.type == "tally" {
            let held = try store.record(key).map(SimulationValues.tally(of:)) ?? []
            try store.save(SimulationValues.Tally(writes: held.union([write]).sorted()), as: key, files: files)
        } else {
            try store.save(
                SimulationValues.Write(write: write, level: Int.random(in: 0...100, using: &random)), as: key,
                files: files)
        }
        return write
    }

    /// Starts automatic sync, unless it runs.
    func startAutomatic() {
        guard automatic == nil else { return }
        let syncing = store.automaticSync(Self.automaticConfiguration)
        automatic = Task { try? await syncing.run() }
    }

    /// Stops automatic sync and waits for it to end.
    func stopAutomatic() async {
        guard let running = automatic else { return }
        running.cancel()
        await running.value
        automatic = nil
    }

    /// Kills the process this many milliseconds into a sync: the sync and automatic sync are
    /// cancelled, the store is dropped, and a new one is opened from the folder (with automatic
    /// sync again if it ran).
    func kill(afterMilliseconds milliseconds: Int) async throws {
        let wasAutomatic = isAutomatic
        let dying = store
        let running = Task { try await dying.sync() }
        try? await Task.sleep(for: .milliseconds(milliseconds))
        running.cancel()
        automatic?.cancel()
        _ = await running.result
        await stopAutomatic()
        await dying.shutdown(cancelRunning: true)
        dying.close()
        watcher?.cancel()
        store = try SyncStore(folder: folder, service: service, configuration: configuration)
        watchRuns()
        if wasAutomatic { startAutomatic() }
    }

    /// Stops automatic sync and the run counter, for the end of a run (the store stays open
    /// for the checks).
    func finish() async {
        await stopAutomatic()
        store.close()
        await watcher?.value
    }
}
