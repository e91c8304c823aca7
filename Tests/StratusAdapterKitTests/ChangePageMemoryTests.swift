import Foundation
import StratusAdapterKit
import Testing

/// The change feed's page memory: an entry is recalled only for its page, item and occurrence,
/// the oldest pages go first past either limit, and it survives a round trip through JSON.
@Suite struct ChangePageMemoryTests {
    @Test func anEntryIsRecalledForItsPageItemAndOccurrenceOnly() {
        var memory = ChangePageMemory<String?>()
        memory.remember("a.txt", page: "P1", id: "A")
        memory.remember(nil, page: "P1", id: "B")
        memory.remember("a-again.txt", page: "P1", id: "A", occurrence: 1)
        #expect(memory.recall(page: "P1", id: "A") == .some("a.txt"))
        #expect(memory.recall(page: "P1", id: "B") == .some(nil), "a remembered nothing is recalled")
        #expect(memory.recall(page: "P1", id: "A", occurrence: 1) == .some("a-again.txt"))
        #expect(memory.recall(page: "P2", id: "A") == nil, "another page")
        #expect(memory.recall(page: "P1", id: "C") == nil, "an item never read")
    }

    @Test func theOldestPagesGoPastEitherLimit() {
        var byPages = ChangePageMemory<Int>(pageLimit: 2, entryLimit: 100)
        for page in 0..<3 { byPages.remember(page, page: "P\(page)", id: "X") }
        #expect(byPages.recall(page: "P0", id: "X") == nil)
        #expect(byPages.recall(page: "P1", id: "X") == 1)
        #expect(byPages.recall(page: "P2", id: "X") == 2)

        var byEntries = ChangePageMemory<Int>(pageLimit: 100, entryLimit: 3)
        for index in 0..<2 { byEntries.remember(index, page: "P0", id: "X\(index)") }
        for index in 0..<2 { byEntries.remember(index, page: "P1", id: "Y\(index)") }
        #expect(byEntries.recall(page: "P0", id: "X0") == nil, "the first page went whole")
        #expect(byEntries.recall(page: "P1", id: "Y1") == 1)
    }

    @Test func itSurvivesARoundTripThroughJSON() throws {
        var memory = ChangePageMemory<String?>(pageLimit: 4, entryLimit: 10)
        memory.remember("a.txt", page: "P1", id: "A")
        memory.remember(nil, page: "P1", id: "B")
        let decoded = try JSONDecoder().decode(
            ChangePageMemory<String?>.self, from: try JSONEncoder().encode(memory))
        #expect(decoded.recall(page: "P1", id: "A") == .some("a.txt"))
        #expect(decoded.recall(page: "P1", id: "B") == .some(nil))
        #expect(decoded.pageLimit == 4 && decoded.entryLimit == 10)
    }
}
