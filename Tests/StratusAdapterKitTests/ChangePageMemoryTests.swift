import Foundation
import StratusAdapterKit
import Testing

/// The change feed's page memory: an entry is recalled only for its page, position and item,
/// the oldest pages go first past either limit, and it survives a round trip through JSON.
@Suite struct ChangePageMemoryTests {
    @Test func anEntryIsRecalledForItsPagePositionAndItemOnly() {
        var memory = ChangePageMemory<String?>()
        memory.remember("a.txt", page: "P1", position: 0, id: "A")
        memory.remember(nil, page: "P1", position: 1, id: "B")
        #expect(memory.recall(page: "P1", position: 0, id: "A") == .some("a.txt"))
        #expect(memory.recall(page: "P1", position: 1, id: "B") == .some(nil), "a remembered nothing is recalled")
        #expect(memory.recall(page: "P1", position: 0, id: "B") == nil, "another item at the position")
        #expect(memory.recall(page: "P2", position: 0, id: "A") == nil, "another page")
        #expect(memory.recall(page: "P1", position: 2, id: "C") == nil, "a position never read")
    }

    @Test func theOldestPagesGoPastEitherLimit() {
        var byPages = ChangePageMemory<Int>(pageLimit: 2, entryLimit: 100)
        for page in 0..<3 { byPages.remember(page, page: "P\(page)", position: 0, id: "X") }
        #expect(byPages.recall(page: "P0", position: 0, id: "X") == nil)
        #expect(byPages.recall(page: "P1", position: 0, id: "X") == 1)
        #expect(byPages.recall(page: "P2", position: 0, id: "X") == 2)

        var byEntries = ChangePageMemory<Int>(pageLimit: 100, entryLimit: 3)
        for position in 0..<2 { byEntries.remember(position, page: "P0", position: position, id: "X\(position)") }
        for position in 0..<2 { byEntries.remember(position, page: "P1", position: position, id: "Y\(position)") }
        #expect(byEntries.recall(page: "P0", position: 0, id: "X0") == nil, "the first page went whole")
        #expect(byEntries.recall(page: "P1", position: 1, id: "Y1") == 1)
    }

    @Test func itSurvivesARoundTripThroughJSON() throws {
        var memory = ChangePageMemory<String?>(pageLimit: 4, entryLimit: 10)
        memory.remember("a.txt", page: "P1", position: 3, id: "A")
        memory.remember(nil, page: "P1", position: 4, id: "B")
        let decoded = try JSONDecoder().decode(
            ChangePageMemory<String?>.self, from: try JSONEncoder().encode(memory))
        #expect(decoded.recall(page: "P1", position: 3, id: "A") == .some("a.txt"))
        #expect(decoded.recall(page: "P1", position: 4, id: "B") == .some(nil))
        #expect(decoded.pageLimit == 4 && decoded.entryLimit == 10)
    }
}
