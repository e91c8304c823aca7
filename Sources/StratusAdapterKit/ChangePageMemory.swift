/// What an adapter's change feed knew when it first read each entry of its recent pages, so a
/// page read again (the token was not saved: a failed sync, a killed process) is told the same
/// changes as the first time.
///
/// A feed that reports items by id (Drive, Graph) names a removed item by the path it last knew
/// for that id, and forgets it as it reads the removal: read twice, the page would name nothing
/// the second time. The adapter asks ``recall(page:position:id:)`` before interpreting an entry
/// and, when nothing is remembered, works from its current knowledge and hands what it used to
/// ``remember(_:page:position:id:)``. An entry is keyed by its page token and its position in
/// the page, checked against the item's id, so a page whose answer changed meanwhile is
/// interpreted afresh wherever it differs.
///
/// Bounded: the newest ``pageLimit`` pages and at most ``entryLimit`` entries are kept (64 and
/// 20,000 by default: a sync reads again the pages since the last token it saved, usually one);
/// a page older than those is interpreted from current knowledge again. The value is `Codable`,
/// so an adapter can keep it in its state file for a new process that reads the same token.
public struct ChangePageMemory<Value: Codable & Sendable>: Codable, Sendable {
    /// One remembered entry.
    private struct Slot: Codable, Sendable {
        var id: String
        var value: Value
    }

    /// The entries of one page, by position.
    private struct Page: Codable, Sendable {
        var token: String
        var slots: [Int: Slot]
    }

    /// How many pages are kept.
    public let pageLimit: Int
    /// How many entries, over all pages, are kept.
    public let entryLimit: Int
    /// Oldest first.
    private var pages: [Page] = []
    private var entryCount = 0

    /// An empty memory.
    /// - Parameters:
    ///   - pageLimit: How many pages are kept (at least 1).
    ///   - entryLimit: How many entries are kept over all pages (at least 1).
    public init(pageLimit: Int = 64, entryLimit: Int = 20_000) {
        self.pageLimit = max(1, pageLimit)
        self.entryLimit = max(1, entryLimit)
    }

    /// What was remembered for an entry of a page, when the entry at that position was the same
    /// item.
    /// - Parameters:
    ///   - page: The page's token.
    ///   - position: The entry's position in the page.
    ///   - id: The item the entry is about.
    /// - Returns: The value, or `nil` when none is remembered.
    public func recall(page: String, position: Int, id: String) -> Value? {
        guard let slot = pages.last(where: { $0.token == page })?.slots[position], slot.id == id else { return nil }
        return slot.value
    }

    /// Remembers what interpreting an entry used, replacing what was remembered at its position.
    /// - Parameters:
    ///   - value: What was known.
    ///   - page: The page's token.
    ///   - position: The entry's position in the page.
    ///   - id: The item the entry is about.
    public mutating func remember(_ value: Value, page: String, position: Int, id: String) {
        let slot = Slot(id: id, value: value)
        if let index = pages.lastIndex(where: { $0.token == page }) {
            if pages[index].slots.updateValue(slot, forKey: position) == nil { entryCount += 1 }
        } else {
            pages.append(Page(token: page, slots: [position: slot]))
            entryCount += 1
        }
        while pages.count > 1, pages.count > pageLimit || entryCount > entryLimit {
            entryCount -= pages.removeFirst().slots.count
        }
    }

    /// Whether anything is remembered.
    public var isEmpty: Bool { pages.isEmpty }
}
