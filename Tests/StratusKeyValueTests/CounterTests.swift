import Foundation
import StratusSync
import SyncSimulation
import Testing

@testable import StratusKeyValue

/// Counters (issue 30): a total that does not depend on the order of the tallies, and resets
/// and removals that every order of merges settles the same way, losing no increment made
/// after the last reset.
@Suite struct CounterTests {
    typealias Tally = KeyValueDocument.Tally
    typealias Entry = KeyValueDocument.Entry

    // MARK: The total

    /// `+(2⁶³−1)` on one device and `+5, −(2⁶³−1)` on another sum to 5, whichever tally comes
    /// first: the device names change from pair to pair, so the dictionaries iterate in both orders.
    @Test func aTotalIsExactWhateverOrderItsTalliesComeIn() {
        for pair in 0..<64 {
            let counter: [String: Tally] = [
                "d1-\(pair)": Tally(added: .max, spent: 0),
                "d2-\(pair)": Tally(added: 5, spent: .max),
            ]
            #expect(Entry.total(counter) == 5, "devices d1-\(pair) and d2-\(pair)")
        }
        for group in 0..<32 {
            // max + max + 5 − max − max: every partial sum in some order passes 64 bits.
            let counter: [String: Tally] = [
                "a\(group)": Tally(added: .max, spent: 0),
                "b\(group)": Tally(added: .max, spent: 0),
                "c\(group)": Tally(added: 5, spent: .max),
                "d\(group)": Tally(added: 0, spent: .max),
            ]
            #expect(Entry.total(counter) == 5, "group \(group)")
        }
    }

    /// A total past 64 bits is clamped once, at the end, to the nearest end of the range.
    @Test func aTotalPast64BitsClampsOnce() {
        for group in 0..<16 {
            let up: [String: Tally] = [
                "a\(group)": Tally(added: .max, spent: 0), "b\(group)": Tally(added: .max, spent: 1),
                "c\(group)": Tally(added: 0, spent: 3),
            ]
            #expect(Entry.total(up) == .max)
            let down: [String: Tally] = [
                "a\(group)": Tally(added: 0, spent: .max), "b\(group)": Tally(added: 7, spent: .max),
            ]
            #expect(Entry.total(down) == .min)
        }
        #expect(Entry.total([:]) == 0)
    }

    /// The same through the store: two devices that sync read 5, not `Int64.min`.
    @Test func twoDevicesReadTheExactTotal() async throws {
        try await KeyValueHarness.with(.local, rules: []) { harness in
            let a = try harness.device("a")
            let b = try harness.device("b")
            try a.increment("coins", by: .max)
            try b.increment("coins", by: 5)
            try b.increment("coins", by: -.max)
            try await a.synchronize()
            try await b.synchronize()
            try await a.synchronize()
            #expect(a.integer(forKey: "coins") == 5)
            #expect(b.integer(forKey: "coins") == 5)
        }
    }

    // MARK: Resets and removals

    /// The issue's case: A resets the coins (5) and earns 10; B, which has not seen the reset,
    /// earns 2 on the old counter. A's reset and its 10 coins stand; B's stale 2 is dropped.
    @Test func aResetKeepsTheCoinsEarnedAfterItAndDropsStaleIncrements() async throws {
        try await KeyValueHarness.with(.local, rules: []) { harness in
            let a = try harness.device("a")
            let b = try harness.device("b")
            let c = try harness.device("c")
            try a.increment("coins", by: 5)
            try await a.synchronize()
            try await b.synchronize()
            try await c.synchronize()
            #expect(b.integer(forKey: "coins") == 5)
            try a.removeValue(forKey: "coins")
            try a.increment("coins", by: 10)
            try await a.synchronize()
            try b.increment("coins", by: 2)  // B has not seen the reset
            try await b.synchronize()
            for device in [a, c, b, a] { try await device.synchronize() }
            for (name, device) in [("a", a), ("b", b), ("c", c)] {
                #expect(device.integer(forKey: "coins") == 10, "device \(name)")
            }
            // The same, with B's stale increment made before A's reset reaches the remote.
            try a.removeValue(forKey: "coins")
            try a.increment("coins", by: 3)
            try b.increment("coins", by: 4)
            try await b.synchronize()
            try await a.synchronize()
            for device in [b, c, a] { try await device.synchronize() }
            for (name, device) in [("a", a), ("b", b), ("c", c)] {
                #expect(device.integer(forKey: "coins") == 3, "device \(name)")
            }
        }
    }

    /// A removal on its own is a reset to nothing: another device's stale increment does not
    /// bring the old counter back.
    @Test func aRemovalIsNotUndoneByAStaleIncrement() async throws {
        try await KeyValueHarness.with(.local, rules: []) { harness in
            let a = try harness.device("a")
            let b = try harness.device("b")
            try a.increment("coins", by: 5)
            try await a.synchronize()
            try await b.synchronize()
            try a.removeValue(forKey: "coins")
            try await a.synchronize()
            try await Task.sleep(for: .milliseconds(5))  // B's increment is the later write by the clock
            try b.increment("coins", by: 2)
            try await b.synchronize()
            try await a.synchronize()
            #expect(a.value(forKey: "coins") == nil)
            #expect(b.value(forKey: "coins") == nil)
            // An increment made after the removal was seen starts the counter again.
            try b.increment("coins", by: 1)
            try await b.synchronize()
            try await a.synchronize()
            #expect(a.integer(forKey: "coins") == 1)
        }
    }

    /// A plain value set over a counter ends the counter's generation like a removal: a stale
    /// increment from a device that had not seen the value does not turn the key back into the
    /// old counter, in either order of merge, whatever the clocks say.
    @Test func aValueSetOverACounterIsNotUndoneByAStaleIncrement() throws {
        let merger = KeyValueMerge(rules: [], device: "merger")
        var shared = KeyValueDocument()
        _ = try shared.increment("coins", by: 5, device: "a", at: Date(timeIntervalSince1970: 1_800_000_000))
        var a = shared
        var b = shared
        try a.set(
            "none", forKey: "coins", rule: .lastWriterWins, device: "a", at: Date(timeIntervalSince1970: 1_800_000_010))
        _ = try b.increment("coins", by: 2, device: "b", at: Date(timeIntervalSince1970: 1_800_000_020))
        for merged in [
            merger.merge(base: shared, local: a, remote: b), merger.merge(base: shared, local: b, remote: a),
        ] {
            #expect(merged.entries["coins"]?.current == "none")
        }
    }

    // MARK: The format

    /// A document an earlier version wrote (no `"format"`, a random id as a counter's
    /// generation) still reads; this version writes format 2 with numbered generations, which
    /// read back as they were.
    @Test func documentsOfTheFirstFormatStillRead() throws {
        let when = JSONValue.string("2026-03-14T09:20:02.500Z")
        func tally(_ added: Int64, _ spent: Int64) -> JSONValue {
            .object(["added": .integer(added), "spent": .integer(spent)])
        }
        let legacy = JSONValue.object([
            "entries": .object([
                "coins": .object(["modified": when, "device": .string("a"), "counter": .object(["a": tally(5, 1)])]),
                "gems": .object([
                    "modified": when, "device": .string("b"), "counter": .object(["b": tally(3, 0)]),
                    "generation": .string("0c6d1e87-2f4b-4a93-b5e0-9d7a3c8f1e26"),
                ]),
                "theme": .object(["modified": when, "device": .string("a"), "value": .string("dark")]),
                "gone": .object(["modified": when, "device": .string("a")]),
                // Format 1 read a generation only on a counter, and only a string.
                "level": .object([
                    "modified": when, "device": .string("a"), "value": .integer(3), "generation": .integer(9),
                ]),
                "stars": .object([
                    "modified": when, "device": .string("a"), "counter": .object(["a": tally(2, 0)]),
                    "generation": .string("4"),
                ]),
            ])
        ])
        let document = try KeyValueDocument(json: legacy)
        #expect(document.entries["coins"]?.current == .integer(4))
        #expect(document.entries["coins"]?.generation == 0)
        #expect(document.entries["gems"]?.current == .integer(3))
        #expect(document.entries["gems"]?.generation == 1)
        #expect(document.entries["theme"]?.current == "dark")
        #expect(document.entries["gone"]?.isRemoved == true)
        #expect(document.entries["level"]?.generation == 0)
        #expect(document.entries["stars"]?.generation == 4)

        var written = document
        try written.remove("gems", device: "a", at: Date(timeIntervalSince1970: 1_800_000_000))
        #expect(written.json.objectValue?["format"] == .integer(2))
        let gone = written.json.objectValue?["entries"]?.objectValue?["gems"]?.objectValue
        #expect(gone?["generation"] == .string("2"))
        #expect(try KeyValueDocument(json: written.json) == written)
    }

    /// A later format is refused as such; a malformed format or generation is an invalid document.
    @Test func laterFormatsAreRefused() throws {
        func code(_ json: JSONValue) -> KeyValueError.Code? {
            do {
                _ = try KeyValueDocument(json: json)
                return nil
            } catch let error as KeyValueError {
                return error.code
            } catch {
                return nil
            }
        }
        let entry = JSONValue.object([
            "modified": .string("2026-03-14T09:20:02.500Z"), "device": .string("a"), "value": .integer(1),
        ])
        #expect(code(.object(["format": .integer(3), "entries": .object([:])])) == .unsupportedFormat)
        #expect(code(.object(["format": .integer(0), "entries": .object([:])])) == .invalidDocument)
        #expect(code(.object(["format": .string("2"), "entries": .object([:])])) == .invalidDocument)
        let numbered = JSONValue.object([
            "modified": .string("2026-03-14T09:20:02.500Z"), "device": .string("a"), "generation": .string("x1"),
        ])
        #expect(code(.object(["format": .integer(2), "entries": .object(["k": numbered])])) == .invalidDocument)
        #expect(code(.object(["format": .integer(2), "entries": .object(["k": entry])])) == nil)
    }

    /// A device whose store meets a remote store of a later format says so, and keeps its changes.
    @Test func synchronizeReportsALaterFormat() async throws {
        try await KeyValueHarness.with(.local, rules: []) { harness in
            let newer = try harness.device("newer")
            try newer.syncStore.save(
                JSONValue.object(["format": .integer(3), "entries": .object([:])]),
                as: RecordKey(type: "kv", id: "store"))
            try await newer.syncStore.sync()
            let b = try harness.device("b")
            try b.set(1, forKey: "x")
            do {
                try await b.synchronize()
                Issue.record("a later format was merged")
            } catch let error as KeyValueError {
                #expect(error.code == .unsupportedFormat)
            }
            #expect(b.integer(forKey: "x") == 1)
        }
    }

    // MARK: Merge laws

    /// Three devices increment, reset, remove and sync in random order, with clocks that
    /// disagree. Every document any device held merges commutatively, associatively and
    /// idempotently; the devices end on one value; and that value holds exactly the increments
    /// made in the last generation (after every reset their device had seen), which is what
    /// <doc:ChoosingMergeRules> promises.
    @Test(arguments: 1...40)
    func counterMergesAgreeInEveryOrder(_ seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let names = ["d0", "d1", "d2"]
        let merger = KeyValueMerge(rules: [], device: "merger")
        // Clocks up to a minute apart: the merge must not need them.
        let skew = names.map { _ in Double.random(in: -60...60, using: &random) }
        var documents = names.map { _ in KeyValueDocument() }
        var bases: [KeyValueDocument?] = names.map { _ in nil }
        var remote = KeyValueDocument()
        var seen: [KeyValueDocument] = [remote]
        // The oracle: each device's view of (generation, live), and every increment's generation.
        var views = names.map { _ in Oracle.View() }
        var remoteView = Oracle.View()
        var increments: [(generation: Int, amount: Int64)] = []

        for step in 0..<60 {
            let index = Int.random(in: 0..<3, using: &random)
            let now = Date(timeIntervalSince1970: 1_800_000_000 + Double(step) + skew[index])
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5:
                let amount = Int64.random(in: -5...9, using: &random)
                _ = try documents[index].increment("coins", by: amount, device: names[index], at: now)
                views[index].live = true
                increments.append((views[index].generation, amount))
            case 5:
                // A reset: remove, then count again.
                try documents[index].remove("coins", device: names[index], at: now)
                views[index].remove()
                let amount = Int64.random(in: 1...9, using: &random)
                _ = try documents[index].increment("coins", by: amount, device: names[index], at: now)
                views[index].live = true
                increments.append((views[index].generation, amount))
            case 6:
                try documents[index].remove("coins", device: names[index], at: now)
                views[index].remove()
            default:
                let merged = merger.merge(base: bases[index], local: documents[index], remote: remote)
                remote = merged
                documents[index] = merged
                bases[index] = merged
                remoteView = remoteView.joined(views[index])
                views[index] = remoteView
            }
            seen.append(documents[index])
        }

        // The laws, on documents from all through the run.
        for _ in 0..<60 {
            let x = seen[Int.random(in: 0..<seen.count, using: &random)]
            let y = seen[Int.random(in: 0..<seen.count, using: &random)]
            let z = seen[Int.random(in: 0..<seen.count, using: &random)]
            let xy = merger.merge(base: nil, local: x, remote: y)
            #expect(Self.same(xy, merger.merge(base: nil, local: y, remote: x)), "commutative, seed \(seed)")
            #expect(Self.same(merger.merge(base: nil, local: x, remote: x), x), "idempotent, seed \(seed)")
            let left = merger.merge(base: nil, local: xy, remote: z)
            let right = merger.merge(base: nil, local: x, remote: merger.merge(base: nil, local: y, remote: z))
            #expect(Self.same(left, right), "associative, seed \(seed)")
        }

        // Every order of merging the three devices' last documents gives the same result.
        let orders = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]
        let results = orders.map { order in
            order.dropFirst().reduce(documents[order[0]]) { merger.merge(base: nil, local: $0, remote: documents[$1]) }
        }
        for result in results.dropFirst() { #expect(Self.same(result, results[0]), "merge order, seed \(seed)") }

        // The devices sync until they agree, and hold what the oracle says.
        for _ in 0..<2 {
            for index in names.indices {
                let merged = merger.merge(base: bases[index], local: documents[index], remote: remote)
                remote = merged
                documents[index] = merged
                bases[index] = merged
                remoteView = remoteView.joined(views[index])
                views[index] = remoteView
            }
        }
        let expected: KeyValue? =
            remoteView.live
            ? .integer(increments.filter { $0.generation == remoteView.generation }.reduce(0) { $0 + $1.amount })
            : nil
        for index in names.indices {
            #expect(documents[index].entries["coins"]?.current == expected, "device \(index), seed \(seed)")
        }
        #expect(Self.same(results[0], remote), "the devices' merge is what syncing reached, seed \(seed)")
    }

    /// The counter rule restated on plain numbers: a removal of a live counter starts the next
    /// generation; the later generation dominates; within one, the counter is live if any side
    /// counted.
    struct Oracle {
        struct View {
            var generation = 0
            var live = false

            mutating func remove() {
                guard live else { return }
                generation += 1
                live = false
            }

            func joined(_ other: View) -> View {
                if generation != other.generation { return generation > other.generation ? self : other }
                return View(generation: generation, live: live || other.live)
            }
        }
    }

    /// Whether two documents say the same (when and where each entry was written aside).
    static func same(_ one: KeyValueDocument, _ other: KeyValueDocument) -> Bool {
        Set(one.entries.keys) == Set(other.entries.keys)
            && one.entries.allSatisfy { key, entry in entry.sameContent(as: other.entries[key]) }
    }
}
