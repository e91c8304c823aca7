import Foundation
import Stratus
import StratusSync

/// One device of a ``SyncSimulation``: a store, and the writes it offered to syncs.
final class SimulatedDevice {
    /// The record types: `save` is resolved by hand (the default policy), `score` merges (the
    /// higher level wins), `profile` takes the newest edit.
    static let types = ["save", "score", "profile"]

    /// The value every simulated record holds: a unique write id and a level.
    struct Value: Codable, Sendable {
        var write: String
        var level: Int
    }

    let name: String
    let store: SyncStore
    private let inputs: URL
    private var counter = 0
    /// Records edited since this device's last sync.
    private var edited = Set<RecordKey>()
    /// Each record's local write that a sync was offered and has not pushed yet. A later local
    /// edit supersedes it (the user's own choice), unless a conflict is open: then the store
    /// archives it, and it must survive.
    private var pending: [RecordKey: String] = [:]
    /// The writes that must survive: pushed, or archived by a conflict.
    private var mustSurvive: [RecordKey: Set<String>] = [:]

    /// Every write this device must find current, archived or in the history.
    var offered: [RecordKey: Set<String>] {
        mustSurvive.merging(pending.mapValues { [$0] }) { $0.union($1) }
    }

    init(index: Int, folder: URL, service: any Service) throws {
        name = "device-\(index)"
        inputs = folder.appending(path: "\(name)-inputs", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        let higherLevel = ConflictPolicy.merge(Value.self) { _, local, remote in
            local.level >= remote.level ? local : remote
        }
        store = try SyncStore(
            folder: folder.appending(path: name, directoryHint: .isDirectory),
            service: service,
            configuration: SyncConfiguration(
                deviceName: name, policies: ["score": higherLevel, "profile": .newest], maximumConcurrentTransfers: 4)
        )
    }

    static func write(of record: SyncRecord) -> String {
        (try? record.decode(Value.self).write) ?? "?"
    }

    /// One random action: an edit (sometimes with new file content) or a delete.
    func act(
        round: Int, options: SyncSimulation.Options, random: inout SeededGenerator, report: inout SyncSimulation.Report
    ) throws {
        let type = Self.types[Int.random(in: 0..<Self.types.count, using: &random)]
        let key = try RecordKey(type: type, id: "r\(Int.random(in: 0..<options.recordsPerType, using: &random))")
        if try store.conflicts().contains(where: { $0.key == key }) {
            settle(key)
        } else {
            pending[key] = nil
        }
        if random.chance(0.1), try store.record(key) != nil {
            try store.delete(key)
            edited.insert(key)
            report.deletes += 1
            return
        }
        counter += 1
        let write = "\(name)-w\(counter)"
        var files: [String: URL]?
        if random.chance(options.fileChance) {
            let size = Int.random(in: 0...options.maximumFileSize, using: &random)
            var bytes = [UInt8](repeating: 0, count: size)
            for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255, using: &random) }
            let file = inputs.appending(path: write)
            try Data(bytes).write(to: file)
            files = ["content": file]
        }
        try store.save(Value(write: write, level: Int.random(in: 0...100, using: &random)), as: key, files: files)
        edited.insert(key)
        report.edits += 1
    }

    /// Syncs, first noting the writes it offers.
    /// - Returns: Whether anything moved.
    @discardableResult
    func sync(report: inout SyncSimulation.Report) async throws -> Bool {
        try prepareSync()
        let outcome: Result<SyncReport, any Error>
        do {
            outcome = .success(try await store.sync())
        } catch {
            outcome = .failure(error)
        }
        return finishSync(outcome, report: &report)
    }

    /// Notes the writes the coming sync is offered.
    func prepareSync() throws {
        for key in edited {
            pending[key] = try store.record(key).map(Self.write(of:))
        }
        edited.removeAll()
    }

    /// Takes in what a sync did.
    /// - Returns: Whether anything moved.
    func finishSync(_ outcome: Result<SyncReport, any Error>, report: inout SyncSimulation.Report) -> Bool {
        report.syncs += 1
        switch outcome {
        case .success(let result):
            for key in result.pushed { settle(key) }
            report.recordFailures += result.failures.count
            report.conflictsResolvedByPolicies += result.resolved.count
            return !result.pulled.isEmpty || !result.pushed.isEmpty || !result.resolved.isEmpty
                || !result.failures.isEmpty
        case .failure:
            report.failedSyncs += 1
            return true
        }
    }

    /// A pending write that has been pushed or archived must survive from now on.
    private func settle(_ key: RecordKey) {
        if let write = pending.removeValue(forKey: key) { mustSurvive[key, default: []].insert(write) }
    }

    /// Resolves every waiting conflict as a user might: keep this side, take the other, or
    /// write a new value.
    func resolveConflicts(random: inout SeededGenerator, report: inout SyncSimulation.Report) throws -> Bool {
        let conflicts = try store.conflicts()
        for conflict in conflicts {
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                try store.resolve(conflict.key, with: .keepLocal)
            case 1:
                try store.resolve(conflict.key, with: .keepRemote)
                settle(conflict.key)
            default:
                counter += 1
                let write = "\(name)-w\(counter)"
                try store.resolve(
                    conflict.key, with: .merged(JSONValue(encoding: Value(write: write, level: 0)), files: nil))
                settle(conflict.key)
                pending[conflict.key] = write
            }
            report.conflictsResolvedByUsers += 1
        }
        return !conflicts.isEmpty
    }

    private static let canonical: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    /// Every record of every type with its value and file hashes, for comparing stores.
    func snapshot() throws -> [RecordKey: String] {
        var result: [RecordKey: String] = [:]
        for type in Self.types {
            for record in try store.records(ofType: type) {
                let files = record.files.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.sha256)" }.joined(
                    separator: ",")
                let value = String(decoding: try Self.canonical.encode(record.value), as: UTF8.self)
                result[record.key] = "\(value) \(files)"
            }
        }
        return result
    }
}
