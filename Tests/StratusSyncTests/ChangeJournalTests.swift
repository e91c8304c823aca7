import Foundation
import Stratus
import Testing

@testable import StratusSync

/// ``SyncStore/changes()`` reports what committed: a slow reader misses nothing, a transaction
/// that failed reports nothing, and closing the store ends the sequences.
@Suite struct ChangeJournalTests {
    @Test func aSlowReaderMissesNoneOfTwelveThousandChanges() async throws {
        let harness = try SyncHarness()
        defer { harness.remove() }
        let store = try harness.device("a")
        let changes = store.changes()
        // Past the 10,000 changes the old in-memory buffer kept for a reader that does not read.
        let count = 12_000
        for start in stride(from: 0, to: count, by: 1_000) {
            var batch = SyncBatch()
            for index in start..<(start + 1_000) {
                try batch.save(["level": index], as: RecordKey(type: "save", id: "slot-\(index)"))
            }
            try store.write(batch)
        }
        try store.save(["level": -1], as: RecordKey(type: "save", id: "end"))
        var seen: [String] = []
        for await change in changes {
            #expect(change.origin == .local)
            #expect(change.kind == .updated)
            if change.key.id == "end" { break }
            seen.append(change.key.id)
        }
        #expect(seen == (0..<count).map { "slot-\($0)" })
    }

    @Test func aFailedWriteReportsNothingAndLaterOnesArrive() async throws {
        let harness = try SyncHarness()
        defer { harness.remove() }
        let store = try harness.device("a")
        let changes = store.changes()
        var batch = SyncBatch()
        try batch.save(["level": 1], as: RecordKey(type: "save", id: "kept-out"))
        batch.delete(try RecordKey(type: "save", id: "never-saved"))
        #expect(throws: SyncError.self) { try store.write(batch) }
        try store.save(["level": 2], as: RecordKey(type: "save", id: "saved"))
        var iterator = changes.makeAsyncIterator()
        let first = await iterator.next()
        #expect(first?.key.id == "saved")
    }

    @Test func aSequenceSeesOnlyWhatCommitsAfterItWasMadeAndEndsWithTheStore() async throws {
        let harness = try SyncHarness()
        defer { harness.remove() }
        let store = try harness.device("a")
        try store.save(["level": 1], as: RecordKey(type: "save", id: "before"))
        let changes = store.changes()
        try store.save(["level": 2], as: RecordKey(type: "save", id: "after"))
        try store.delete(RecordKey(type: "save", id: "before"))
        store.close()
        var seen: [RecordChange] = []
        for await change in changes { seen.append(change) }
        // Closing ends the sequence; what it had not read yet stays unread.
        #expect(seen.count <= 2)
        let reopened = store.changes()
        try store.save(["level": 3], as: RecordKey(type: "save", id: "later"))
        var iterator = reopened.makeAsyncIterator()
        #expect(await iterator.next()?.key.id == "later")
    }

    @Test func rowsGoOnceEveryOpenSequenceHasReadThem() async throws {
        let harness = try SyncHarness()
        defer { harness.remove() }
        let store = try harness.device("a")
        for index in 0..<5 { try store.save(["level": index], as: RecordKey(type: "save", id: "s-\(index)")) }
        // No sequence open: each transaction removes what came before it.
        #expect(try journalRows(store) <= 1)
        let changes = store.changes()
        for index in 0..<5 { try store.save(["level": index], as: RecordKey(type: "save", id: "t-\(index)")) }
        #expect(try journalRows(store) >= 5)
        var iterator = changes.makeAsyncIterator()
        for _ in 0..<5 { _ = await iterator.next() }
        try store.save(["level": 9], as: RecordKey(type: "save", id: "u"))
        #expect(try journalRows(store) <= 2)
    }

    private func journalRows(_ store: SyncStore) throws -> Int {
        try store.state.read { db in try db.changes(after: 0, limit: 100_000).changes.count }
    }
}
