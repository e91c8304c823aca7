import Foundation
import Stratus
import StratusSync
import StratusTestSupport
import SyncSimulation
import Synchronization
import Testing

/// The whole-save scenarios of a game, on `local` and a mock Dropbox.
@Suite struct GameScenarioTests {
    struct GameSave: Codable, Equatable, Sendable {
        var levels: [String: Int] = [:]

        func merged(with other: GameSave) -> GameSave {
            GameSave(levels: levels.merging(other.levels) { max($0, $1) })
        }
    }

    static let bestOfBoth = ConflictPolicy.merge(GameSave.self) { _, local, remote in local.merged(with: remote) }

    /// Runs `body` with a fresh folder and service of a remote kind.
    private func withRemote(
        _ remote: SimulationRemote, _ body: @escaping @Sendable (URL, any Service) async throws -> Void
    ) async throws {
        let temporaryFolder = try TemporaryFolder(prefix: "stratus-game")
        defer { temporaryFolder.remove() }
        let folder = temporaryFolder.url
        try await remote.withService(folder: folder, faultChance: 0, seed: 0) { service, _ in
            try await body(folder, service)
        }
    }

    private static func device(_ name: String, _ folder: URL, _ service: any Service, policy: ConflictPolicy?) throws
        -> SyncStore
    {
        try SyncStore(
            folder: folder.appending(path: name), service: service,
            configuration: SyncConfiguration(deviceName: name, policies: policy.map { ["save": $0] } ?? [:])
        )
    }

    private static func file(_ folder: URL, _ text: String) throws -> URL {
        let url = folder.appending(path: UUID().uuidString)
        try Data(text.utf8).write(to: url)
        return url
    }

    /// 3. Offline play on A, online play on B, then A comes online.
    @Test(arguments: [SimulationRemote.local, .dropbox])
    func theWholeSaveConflictLosesNothing(_ remote: SimulationRemote) async throws {
        try await withRemote(remote) { folder, service in
            for policy in [Self.bestOfBoth, nil] {
                let run = UUID().uuidString
                let a = try Self.device("a-\(run)", folder, service, policy: policy)
                let b = try Self.device("b-\(run)", folder, service, policy: policy)
                let slot = try RecordKey(type: "save", id: "slot-\(run)")
                try a.save(GameSave(levels: ["1-1": 100]), as: slot)
                try await a.sync()
                try await b.sync()
                try a.save(GameSave(levels: ["1-1": 100, "1-2": 900]), as: slot)  // offline
                try b.save(GameSave(levels: ["1-1": 300, "1-3": 700]), as: slot)
                try await b.sync()
                let report = try await a.sync()
                let everything = GameSave(levels: ["1-1": 300, "1-2": 900, "1-3": 700])
                if policy != nil {
                    #expect(report.isClean)
                    try await b.sync()
                    #expect(try a.record(slot)?.decode(GameSave.self) == everything)
                    #expect(try b.record(slot)?.decode(GameSave.self) == everything)
                } else {
                    #expect(report.conflicts == [slot])
                    let conflict = try #require(try a.conflicts().first)
                    let merged = try conflict.local.decode(GameSave.self).merged(
                        with: conflict.remote.decode(GameSave.self))
                    try a.resolve(slot, with: .merged(JSONValue(encoding: merged), files: nil))
                    try await a.sync()
                    try await b.sync()
                    #expect(try b.record(slot)?.decode(GameSave.self) == everything)
                }
            }
        }
    }

    /// 4. A save with two files resolved the wrong way, then undone from the history.
    @Test(arguments: [SimulationRemote.local, .dropbox])
    func aWrongResolutionIsUndoneWithBothFiles(_ remote: SimulationRemote) async throws {
        try await withRemote(remote) { folder, service in
            let a = try Self.device("a", folder, service, policy: nil)
            let b = try Self.device("b", folder, service, policy: nil)
            let slot = try RecordKey(type: "save", id: "slot-1")
            try a.save(
                GameSave(levels: ["1-1": 100]), as: slot,
                files: ["state": Self.file(folder, "A-STATE-1"), "thumbnail": Self.file(folder, "A-PIC-1")])
            try await a.sync()
            try await b.sync()
            try a.save(
                GameSave(levels: ["1-1": 100, "1-9": 9000]), as: slot,
                files: ["state": Self.file(folder, "A-STATE-9"), "thumbnail": Self.file(folder, "A-PIC-9")])
            try await a.sync()
            try b.save(
                GameSave(levels: ["1-1": 50]), as: slot,
                files: ["state": Self.file(folder, "B-STATE"), "thumbnail": Self.file(folder, "B-PIC")])
            #expect(try await b.sync().conflicts == [slot])
            try b.resolve(slot, with: .keepLocal)  // the wrong way: A's level 1-9 is gone from the current save
            try await b.sync()
            try await a.sync()
            #expect(try a.record(slot)?.decode(GameSave.self) == GameSave(levels: ["1-1": 50]))

            // Undo: find the version with 1-9 and bring it back, files and all.
            let history = try await a.versions(of: slot)
            let good = try #require(history.first { (try? $0.record.decode(GameSave.self).levels["1-9"]) != nil })
            try await a.restore(slot, to: good.id)
            try await a.sync()
            try await b.sync()
            for store in [a, b] {
                let record = try #require(try store.record(slot))
                #expect(try record.decode(GameSave.self).levels["1-9"] == 9000)
                #expect(
                    try String(decoding: Data(contentsOf: #require(record.files["state"]).url), as: UTF8.self)
                        == "A-STATE-9")
                #expect(
                    try String(decoding: Data(contentsOf: #require(record.files["thumbnail"]).url), as: UTF8.self)
                        == "A-PIC-9")
            }
        }
    }
}
