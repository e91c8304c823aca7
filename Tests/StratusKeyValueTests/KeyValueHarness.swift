import Foundation
import Stratus
import StratusKeyValue
import StratusSync
import StratusTestSupport
import SyncSimulation
import Synchronization
import Testing

/// Devices with key-value stores on one remote: `local`, or a mock Dropbox started for the test.
struct KeyValueHarness: Sendable {
    let folder: URL
    let service: any Service
    let rules: [KeyRule]

    /// Runs `body` with a fresh remote of the given kind.
    static func with(
        _ remote: SimulationRemote, rules: [KeyRule], _ body: @escaping @Sendable (KeyValueHarness) async throws -> Void
    ) async throws {
        let temporaryFolder = try TemporaryFolder(prefix: "stratus-kv-tests")
        defer { temporaryFolder.remove() }
        let folder = temporaryFolder.url
        try await remote.withService(folder: folder, faultChance: 0, seed: 0) { service, _ in
            try await body(KeyValueHarness(folder: folder, service: service, rules: rules))
        }
    }

    /// A device's store (the same folder each time for the same name).
    func device(_ name: String, limits: KeyValueLimits = KeyValueLimits()) throws -> KeyValueStore {
        try KeyValueStore(
            folder: folder.appending(path: "devices/\(name)"),
            service: service,
            configuration: KeyValueConfiguration(rules: rules, limits: limits, deviceName: name)
        )
    }
}

/// The remotes every scenario runs on.
let scenarioRemotes: [SimulationRemote] = [.local, .dropbox]
