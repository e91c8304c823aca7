import Foundation
import Stratus
import StratusKeyValue
import StratusSync

/// One device playing the game: its save (a StratusSync record with a thumbnail file) and its
/// progress (a key-value store), each in its own folder. All sync state is StratusSync's.
struct Device {
    let name: String
    let saves: SyncStore
    let progress: KeyValueStore
    /// The save slot every device shares.
    let slot: RecordKey

    /// Opens (or creates) a device in a folder.
    /// - Parameter remoteFolder: The folder on the remote for the game's data.
    init(name: String, folder: URL, service: any Service, remoteFolder: String = "save-sync") throws {
        self.name = name
        slot = try RecordKey(type: "save", id: "slot-1")
        // Two devices that both played: keep the best result of each level.
        let bestOfBoth = ConflictPolicy.merge(GameSave.self) { _, local, remote in local.merged(with: remote) }
        saves = try SyncStore(
            folder: folder.appending(path: "saves"), service: service,
            configuration: SyncConfiguration(
                remoteFolder: remoteFolder, deviceName: name, policies: ["save": bestOfBoth])
        )
        progress = try KeyValueStore(
            folder: folder.appending(path: "progress"), service: service,
            configuration: KeyValueConfiguration(
                rules: [.key("highestLevel", .highest)], remoteFolder: remoteFolder + "-progress", deviceName: name)
        )
    }

    /// The device's save; a device that never played has an empty one.
    func save() throws -> GameSave {
        try saves.record(slot)?.decode(GameSave.self) ?? GameSave()
    }

    /// Plays a level: the save keeps the best result, the highest level and the coins go up.
    @discardableResult
    func play(level: String, stars: Int, score: Int) throws -> GameSave {
        try play([(level, stars, score)])
    }

    /// Plays several levels in one session, saved once at its end.
    @discardableResult
    func play(_ results: [(level: String, stars: Int, score: Int)]) throws -> GameSave {
        var save = try save()
        for result in results { save.record(level: result.level, stars: result.stars, score: result.score) }
        let thumbnail = FileManager.default.temporaryDirectory.appending(path: "thumbnail-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: thumbnail) }
        let last = results.last.map { "\($0.level) with \(GameSave.stars($0.stars))" } ?? "nothing"
        try Data("[\(name) finished \(last)]\n".utf8).write(to: thumbnail)
        try saves.save(save, as: slot, files: ["thumbnail": thumbnail])
        try progress.set(.integer(Int64(save.levels.count)), forKey: "highestLevel")
        try progress.increment("coins", by: Int64(results.reduce(0) { $0 + $1.stars }))
        return save
    }

    /// Starts automatic sync of the save and the progress; cancel the task to stop it.
    func startAutomaticSync() -> Task<Void, Never> {
        let configuration = AutomaticSyncConfiguration(debounce: .milliseconds(300))
        let saveSync = saves.automaticSync(configuration)
        let progressSync = progress.automaticSync(configuration)
        return Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { try? await saveSync.run() }
                group.addTask { try? await progressSync.run() }
            }
        }
    }

    /// Syncs the save and the progress.
    /// - Returns: What the save's sync did.
    func sync() async throws -> SyncReport {
        let report = try await saves.sync()
        try await progress.synchronize()
        if let failure = report.failures.first { throw SaveSyncFailure("\(name) could not sync \(failure)") }
        return report
    }

    /// One line about the progress store.
    var progressSummary: String {
        "highest level \(progress.integer(forKey: "highestLevel") ?? 0), \(progress.integer(forKey: "coins") ?? 0) coins"
    }

    /// Where the device stands, without contacting the remote.
    func status() throws -> [String] {
        let pending = try saves.pendingChangeCount()
        return [
            "device: \(name)",
            "save: \(try save().summary)",
            "progress: \(progressSummary)",
            "state: " + (pending == 0 ? "in sync as of the last sync" : "new progress to push"),
        ]
    }
}
