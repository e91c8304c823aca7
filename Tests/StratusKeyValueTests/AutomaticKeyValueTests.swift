import Foundation
import StratusKeyValue
import StratusSync
import SyncSimulation
import Testing

/// Values set on one device reach the other's `externalChanges()` with automatic sync and no
/// call to `synchronize()`.
@Suite struct AutomaticKeyValueTests {
    @Test(arguments: scenarioRemotes)
    func aValueSetOnOneDeviceReachesTheOtherByItself(_ remote: SimulationRemote) async throws {
        try await KeyValueHarness.with(remote, rules: [.key("highestLevel", .highest)]) { harness in
            let a = try harness.device("a")
            let b = try harness.device("b")
            let quick = AutomaticSyncConfiguration(debounce: .milliseconds(100), firstRetry: .milliseconds(100))
            let changes = b.externalChanges()
            let tasks = [a, b].map { store in Task { try await store.automaticSync(quick).run() } }
            defer { for task in tasks { task.cancel() } }
            try a.set(.integer(13), forKey: "highestLevel")
            let arrived = await withTaskGroup(of: KeyValueChange?.self) { group in
                group.addTask {
                    for await change in changes where change.keys.contains("highestLevel") { return change }
                    return nil
                }
                group.addTask {
                    try? await Task.sleep(for: .seconds(60))
                    return nil
                }
                defer { group.cancelAll() }
                return await group.next() ?? nil
            }
            #expect(arrived != nil, "b heard of the change by itself")
            #expect(b.integer(forKey: "highestLevel") == 13)
            // A lower level set offline on b never wins over 13 on a.
            try b.set(.integer(1), forKey: "highestLevel")
            #expect(b.integer(forKey: "highestLevel") == 13)
            for task in tasks {
                task.cancel()
                try await task.value
            }
        }
    }
}
