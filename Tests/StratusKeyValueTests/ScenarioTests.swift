import Foundation
import StratusKeyValue
import StratusSync
import SyncSimulation
import Testing

/// The scenarios that lose data under a timestamp-wins store, each on `local` and a mock.
@Suite struct ScenarioTests {
    /// 1. Level 13 on A online; level 1 on B offline, which then comes online.
    @Test(arguments: scenarioRemotes)
    func levelThirteenIsNeverLostToLevelOne(_ remote: SimulationRemote) async throws {
        try await KeyValueHarness.with(remote, rules: [.key("highestLevel", .highest)]) { harness in
            let a = try harness.device("a")
            let b = try harness.device("b")
            try a.set(1, forKey: "highestLevel")
            try await a.synchronize()
            try await b.synchronize()
            try a.set(13, forKey: "highestLevel")
            try await a.synchronize()
            try b.set(1, forKey: "highestLevel")  // B plays level 1 again, offline
            #expect(b.integer(forKey: "highestLevel") == 1, "B has not seen 13 yet")
            let changed = try await b.synchronize()
            #expect(changed == ["highestLevel"])
            #expect(b.integer(forKey: "highestLevel") == 13, "B's user defaults end at 13, not 1")
            try await a.synchronize()
            #expect(a.integer(forKey: "highestLevel") == 13)
            // The same store reopened (an app restart) still says 13.
            #expect(try harness.device("b").integer(forKey: "highestLevel") == 13)
            // Once B knows 13, replaying level 1 does not lower it, synced or not.
            try b.set(1, forKey: "highestLevel")
            #expect(b.integer(forKey: "highestLevel") == 13)
        }
    }

    /// 2. Two devices each complete half of a box of levels, syncing now and then.
    @Test(arguments: scenarioRemotes)
    func halfTheLevelsOnEachDeviceEndWithAllOnBoth(_ remote: SimulationRemote) async throws {
        try await KeyValueHarness.with(remote, rules: [.prefix("box.", .perEntry(.perEntry(.highest)))]) { harness in
            let a = try harness.device("a")
            let b = try harness.device("b")
            var expected: [String: KeyValue] = [:]
            var onA: [String: KeyValue] = [:]
            var onB: [String: KeyValue] = [:]
            for level in 1...10 {
                let result: KeyValue = ["score": .integer(Int64(level * 100)), "stars": .integer(Int64(level % 3 + 1))]
                expected["1-\(level)"] = result
                if level % 2 == 0 {
                    onA = a.dictionary(forKey: "box.1") ?? [:]
                    onA["1-\(level)"] = result
                    try a.set(.dictionary(onA), forKey: "box.1")
                } else {
                    onB = b.dictionary(forKey: "box.1") ?? [:]
                    onB["1-\(level)"] = result
                    try b.set(.dictionary(onB), forKey: "box.1")
                }
                if level % 3 == 0 { try await a.synchronize() }
                if level % 4 == 0 { try await b.synchronize() }
            }
            // B replays 1-2 worse than A did: the best result stays.
            var replay = b.dictionary(forKey: "box.1") ?? [:]
            replay["1-2"] = ["score": 1, "stars": 1]
            try b.set(.dictionary(replay), forKey: "box.1")
            try await a.synchronize()
            try await b.synchronize()
            try await a.synchronize()
            #expect(a.dictionary(forKey: "box.1") == expected)
            #expect(b.dictionary(forKey: "box.1") == expected)
        }
    }

    /// 5. A purchase made on each device while both are offline.
    @Test(arguments: scenarioRemotes)
    func purchasesOnBothDevicesOfflineBothSurvive(_ remote: SimulationRemote) async throws {
        try await KeyValueHarness.with(remote, rules: [.key("purchases", .union)]) { harness in
            let a = try harness.device("a")
            let b = try harness.device("b")
            try a.set(["starter-pack"], forKey: "purchases")
            try await a.synchronize()
            try await b.synchronize()
            try a.set(["starter-pack", "gem-pouch"], forKey: "purchases")
            try b.set(["starter-pack", "no-ads"], forKey: "purchases")
            try a.events.append("purchased", payload: ["item": "gem-pouch"])
            try b.events.append("purchased", payload: ["item": "no-ads"])
            try await a.synchronize()
            try await b.synchronize()
            try await a.synchronize()
            for device in [a, b] {
                #expect(Set(device.array(forKey: "purchases") ?? []) == ["starter-pack", "gem-pouch", "no-ads"])
                #expect(
                    try device.events.events().compactMap { event -> String? in
                        if case .dictionary(let payload) = event.payload, case .string(let item)? = payload["item"] {
                            item
                        } else {
                            nil
                        }
                    }.sorted() == ["gem-pouch", "no-ads"])
            }
        }
    }
}
