import Foundation
import StratusKeyValue
import StratusSync
import SyncSimulation
import Testing

/// The store's own behaviour: types, limits, atomic writes, counters, notifications, the log.
@Suite struct StoreTests {
    @Test func everyTypeComesBackAsItWas() async throws {
        try await KeyValueHarness.with(.local, rules: []) { harness in
            let a = try harness.device("a")
            let when = Date(timeIntervalSince1970: 1_800_000_000.25)
            let values: [String: KeyValue] = [
                "flag": true, "count": 42, "ratio": 0.5, "name": "Ada", "blob": .data(Data([0, 1, 255])),
                "when": .date(when), "list": [1, "two", [3.5]], "nested": ["a": ["b": false]],
            ]
            try a.set(values)
            try await a.synchronize()
            let b = try harness.device("b")
            try await b.synchronize()
            for (key, value) in values { #expect(b.value(forKey: key) == value, "\(key)") }
            #expect(b.bool(forKey: "flag") == true)
            #expect(b.integer(forKey: "count") == 42)
            #expect(b.double(forKey: "count") == 42)
            #expect(b.string(forKey: "name") == "Ada")
            #expect(b.data(forKey: "blob") == Data([0, 1, 255]))
            #expect(b.date(forKey: "when") == when)
            #expect(b.string(forKey: "count") == nil)
            try b.removeValue(forKey: "name")
            try await b.synchronize()
            try await a.synchronize()
            #expect(a.value(forKey: "name") == nil)
            #expect(a.keys == values.keys.filter { $0 != "name" }.sorted())
        }
    }

    @Test func limitsRefuseTheWholeWriteAndSaySo() async throws {
        try await KeyValueHarness.with(.local, rules: []) { harness in
            let a = try harness.device(
                "a", limits: KeyValueLimits(maximumTotalBytes: 200, maximumKeys: 3, maximumKeyLength: 8))
            var notes = a.externalChanges().makeAsyncIterator()
            try a.set(["k1": 1, "k2": 2])
            do {
                try a.set(["k3": 3, "k4": 4])
                Issue.record("four keys were accepted")
            } catch let error as KeyValueError {
                #expect(error.code == .quotaExceeded)
            }
            #expect(a.keys == ["k1", "k2"], "all keys or none")
            #expect(await notes.next()?.reason == .quotaExceeded)
            do {
                try a.set(.string(String(repeating: "x", count: 300)), forKey: "k3")
                Issue.record("an over-size value was accepted")
            } catch let error as KeyValueError {
                #expect(error.code == .quotaExceeded)
            }
            do {
                try a.set(1, forKey: "too-long-key")
                Issue.record("a long key was accepted")
            } catch let error as KeyValueError {
                #expect(error.code == .invalidKey)
            }
            #expect(a.value(forKey: "k3") == nil)
            try a.removeValue(forKey: "k1")  // shrinking is always allowed
        }
    }

    @Test func aCounterAddsAndSpendsAcrossDevices() async throws {
        try await KeyValueHarness.with(.local, rules: []) { harness in
            let a = try harness.device("a")
            let b = try harness.device("b")
            try a.increment("coins", by: 5)
            try a.increment("coins", by: -2)
            try b.increment("coins", by: 3)  // offline
            try await a.synchronize()
            try await b.synchronize()
            try await a.synchronize()
            #expect(a.integer(forKey: "coins") == 6)
            #expect(b.integer(forKey: "coins") == 6)
            try a.set("text", forKey: "label")
            let mismatch = #expect(throws: KeyValueError.self) { try a.increment("label", by: 1) }
            #expect(mismatch?.code == .typeMismatch)
            let overflow = #expect(throws: KeyValueError.self) { try a.increment("coins", by: .min) }
            #expect(overflow?.code == .overflow)
            #expect(a.integer(forKey: "coins") == 6)
        }
    }

    @Test func lastWriterWinsKeepsTheLoserInHistory() async throws {
        try await KeyValueHarness.with(.local, rules: []) { harness in
            let a = try harness.device("a")
            let b = try harness.device("b")
            try a.set("dark", forKey: "theme")
            try await a.synchronize()
            try await b.synchronize()
            try a.set("light", forKey: "theme")
            try await a.synchronize()
            try await Task.sleep(for: .milliseconds(5))
            try b.set("sepia", forKey: "theme")
            try await b.synchronize()
            try await a.synchronize()
            #expect(a.string(forKey: "theme") == "sepia")
            #expect(b.string(forKey: "theme") == "sepia")
            let history = try await a.syncStore.versions(of: .init(type: "kv", id: "store"))
            let themes = history.compactMap {
                $0.record.value.objectValue?["entries"]?.objectValue?["theme"]?.objectValue?["value"]
            }
            #expect(themes.contains(.string("light")), "the losing value is in the history: \(themes)")
        }
    }

    @Test func otherDevicesChangesAreAnnouncedWithTheirReason() async throws {
        try await KeyValueHarness.with(.local, rules: []) { harness in
            let a = try harness.device("a")
            let b = try harness.device("b")
            var notes = b.externalChanges().makeAsyncIterator()
            try a.set(["x": 1, "y": 2])
            try await a.synchronize()
            try await b.synchronize()
            #expect(await notes.next() == KeyValueChange(reason: .initialSync, keys: ["x", "y"]))
            try a.set(3, forKey: "y")
            try await a.synchronize()
            try await b.synchronize()
            #expect(await notes.next() == KeyValueChange(reason: .changedOnAnotherDevice, keys: ["y"]))
        }
    }

    @Test func aFoldRejectsTheSameInvalidEventsOnEveryDevice() async throws {
        try await KeyValueHarness.with(.local, rules: []) { harness in
            let a = try harness.device("a")
            let b = try harness.device("b")
            try a.events.append("earned", payload: ["amount": 3])
            try await a.synchronize()
            try await b.synchronize()
            // Both spend the 3 coins offline.
            try a.events.append("spent", payload: ["amount": 3])
            try b.events.append("spent", payload: ["amount": 3])
            try await a.synchronize()
            try await b.synchronize()
            try await a.synchronize()
            func balance(_ store: KeyValueStore) throws -> (Int64, Int) {
                let (state, rejected) = try store.events.fold(Int64(0)) { balance, event in
                    guard case .dictionary(let payload) = event.payload, case .integer(let amount)? = payload["amount"]
                    else { return }
                    if event.name == "spent" {
                        guard balance >= amount else { throw EventLog.Rejection("not enough coins") }
                        balance -= amount
                    } else {
                        balance += amount
                    }
                }
                return (state, rejected.count)
            }
            let onA = try balance(a)
            let onB = try balance(b)
            #expect(onA.0 == 0 && onA.1 == 1)
            #expect(onB.0 == onA.0 && onB.1 == onA.1)
            #expect(try a.events.events() == b.events.events())
        }
    }
}
