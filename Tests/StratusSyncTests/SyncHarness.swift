import Foundation
import Stratus
import StratusLocal
import StratusSync
import StratusTestSupport
import SyncSimulation
import Synchronization
import Testing

/// A per-test folder with one remote (`local`, a mock, or moto's S3) and any number of devices,
/// each a ``SyncStore`` in its own folder, all syncing through that remote.
struct SyncHarness: Sendable {
    let folder: URL
    let remote: ObservedService

    /// A harness on a `local` remote in its own folder (remove it with ``remove()``).
    init() throws {
        folder = try TemporaryFolder(prefix: "stratus-sync-tests").url
        remote = ObservedService(try LocalService(root: folder.appending(path: "remote", directoryHint: .isDirectory)))
    }

    /// A harness on a service of the test's, with a per-test folder for the devices.
    init(service: any Service) throws {
        self.init(folder: try TemporaryFolder(prefix: "stratus-sync-tests").url, service: service)
    }

    private init(folder: URL, service: any Service) {
        self.folder = folder
        remote = ObservedService(service)
    }

    /// Runs `body` with a harness on a fresh remote of a kind, then removes everything.
    static func with(_ kind: SimulationRemote, _ body: @escaping @Sendable (SyncHarness) async throws -> Void)
        async throws
    {
        let temporaryFolder = try TemporaryFolder(prefix: "stratus-sync-tests")
        defer { temporaryFolder.remove() }
        let folder = temporaryFolder.url
        try await kind.withService(folder: folder, faultChance: 0, seed: 0) { service, _ in
            try await body(SyncHarness(folder: folder, service: service))
        }
    }

    /// Runs `body` with a harness on a fresh mock of a kind whose answers are 503 with a
    /// chance, while `body` turns the faults on with the switch it gets.
    static func withFaults(
        _ kind: SimulationRemote, chance: Double,
        _ body: @escaping @Sendable (SyncHarness, SyncSimulation.FaultSwitch) async throws -> Void
    ) async throws {
        let temporaryFolder = try TemporaryFolder(prefix: "stratus-sync-tests")
        defer { temporaryFolder.remove() }
        let folder = temporaryFolder.url
        try await kind.withService(folder: folder, faultChance: chance, seed: 7) { service, faults in
            guard let faults else { throw SyncError(.unsupported, "\(kind) has no fault injection") }
            try await body(SyncHarness(folder: folder, service: service), faults)
        }
    }

    /// A device's store (the same folder each time for the same name).
    func device(_ name: String, policies: [String: ConflictPolicy] = [:], service: (any Service)? = nil) throws
        -> SyncStore
    {
        try SyncStore(
            folder: folder.appending(path: "devices/\(name)", directoryHint: .isDirectory),
            service: service ?? remote,
            configuration: SyncConfiguration(deviceName: name, policies: policies)
        )
    }

    /// Writes a file with some text and returns its URL.
    func file(_ name: String, _ text: String) throws -> URL {
        let url = folder.appending(path: "inputs/\(UUID().uuidString)-\(name)")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url
    }

    /// The remote path of a record's document under the default remote folder.
    func documentPath(_ type: String, _ id: String) throws -> RemotePath {
        try RemotePath("stratus-sync/records/\(type)/\(id).json")
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}

/// A small save game, the value type of most tests.
struct Save: Codable, Hashable, Sendable {
    var level: Int
    var note: String = ""
}

func key(_ id: String, type: String = "save") throws -> RecordKey {
    try RecordKey(type: type, id: id)
}

/// The text of a record's file on a device.
func text(of record: SyncRecord?, _ name: String) throws -> String? {
    guard let file = record?.files[name] else { return nil }
    return String(decoding: try Data(contentsOf: file.url), as: UTF8.self)
}

/// Runs a call that must throw a ``SyncError`` with a given code.
@discardableResult
func expectSyncError<Value>(
    _ code: SyncError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ call: () async throws -> Value
) async -> SyncError? {
    do {
        let value = try await call()
        Issue.record("Expected SyncError(\(code)), got \(value)", sourceLocation: sourceLocation)
    } catch let error as SyncError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("Expected SyncError(\(code)), got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

extension SyncHarness {
    /// Removes remote files below a folder through the service, as a person or another tool
    /// would (no tombstones), and returns how many went.
    @discardableResult
    func removeRemoteFiles(
        below folder: String, on service: (any Service)? = nil, where include: (RemotePath) -> Bool = { _ in true }
    ) async throws -> Int {
        let target = service ?? remote
        var removed = 0
        for file in try await target.list(RemotePath(folder)) where include(file.path) {
            try await target.delete(file.path)
            removed += 1
        }
        return removed
    }

    /// A `local` service on another folder of this harness, as if the app now pointed at
    /// another account or folder.
    func otherRemote(_ name: String) throws -> ObservedService {
        ObservedService(try LocalService(root: folder.appending(path: name, directoryHint: .isDirectory)))
    }
}
