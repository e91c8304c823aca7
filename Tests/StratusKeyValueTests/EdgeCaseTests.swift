import Foundation
import StratusKeyValue
import StratusSync
import SyncSimulation
import Testing

/// Cases a review found: writes after a sync that bypassed the store, removals and resets that
/// must stick, dictionaries that look like tags, and device names that share a prefix.
@Suite struct EdgeCaseTests {
    @Test func aWriteAfterASyncOfTheUnderlyingStoreKeepsWhatItPulled() async throws {
        try await KeyValueHarness.with(.local, rules: [.key("highestLevel", .highest)]) { harness in
            let a = try harness.device("a")
            let b = try harness.device("b")
            try a.set(13, forKey: "highestLevel")
            try a.increment("coins", by: 4)
            try await a.synchronize()
            try await b.syncStore.sync()  // not through synchronize()
            try b.set("dark", forKey: "theme")
            try await b.synchronize()
            try await a.synchronize()
            #expect(a.integer(forKey: "highestLevel") == 13)
            #expect(a.integer(forKey: "coins") == 4)
            #expect(a.string(forKey: "theme") == "dark")
        }
    }

    @Test func aRemovalSticksWhenTheOtherDeviceChangedAnotherKey() async throws {
        try await KeyValueHarness.with(.local, rules: [.key("unlocked", .union), .key("best", .highest)]) { harness in
            let a = try harness.device("a")
            let b = try harness.device("b")
            try a.set(["unlocked": ["sword"], "best": 10])
            try await a.synchronize()
            try await b.synchronize()
            try a.removeValue(forKey: "unlocked")
            try a.removeValue(forKey: "best")
            try b.set("x", forKey: "other")
            try await a.synchronize()
            try await b.synchronize()
            try await a.synchronize()
            for device in [a, b] {
                #expect(device.value(forKey: "unlocked") == nil)
                #expect(device.value(forKey: "best") == nil)
                #expect(device.string(forKey: "other") == "x")
            }
        }
    }

    @Test func aCounterResetIsNotUndoneByTheOldTallies() async throws {
        try await KeyValueHarness.with(.local, rules: []) { harness in
            let a = try harness.device("a")
            let b = try harness.device("b")
            try a.increment("coins", by: 5)
            try b.increment("coins", by: 7)
            try await a.synchronize()
            try await b.synchronize()
            try await a.synchronize()
            #expect(a.integer(forKey: "coins") == 12)
            try a.removeValue(forKey: "coins")
            try a.increment("coins", by: 2)
            try await a.synchronize()
            try await b.synchronize()
            #expect(a.integer(forKey: "coins") == 2)
            #expect(b.integer(forKey: "coins") == 2)
        }
    }

    @Test func dictionariesThatLookLikeTagsComeBackAsDictionaries() async throws {
        try await KeyValueHarness.with(.local, rules: []) { harness in
            let a = try harness.device("a")
            let tricky: KeyValue = ["$data": "not base64 !", "$date": "yesterday"]
            let single: KeyValue = ["$data": "AAEC"]
            try a.set(["tricky": tricky, "single": single, "real": .data(Data([0, 1, 2]))])
            try await a.synchronize()
            let b = try harness.device("b")
            try await b.synchronize()
            #expect(b.value(forKey: "tricky") == tricky)
            #expect(b.value(forKey: "single") == single)
            #expect(b.data(forKey: "real") == Data([0, 1, 2]))
        }
    }

    @Test func devicesWhoseNamesShareAPrefixKeepTheirOwnLogs() async throws {
        try await KeyValueHarness.with(.local, rules: []) { harness in
            let short = try harness.device("a")
            let long = try harness.device("a.b")
            try long.events.append("one")
            try await long.synchronize()
            try await short.synchronize()
            try short.events.append("two")
            try await short.synchronize()
            try await long.synchronize()
            let names = try long.events.events().map { "\($0.device):\($0.sequence):\($0.name)" }
            #expect(names.sorted() == ["a.b:1:one", "a:1:two"])
        }
    }
}
