/// What an adapter's change feed knew when it first read each entry of its recent pages, so a
/// page read again (the token was not saved: a failed sync, a killed process) is told the same
/// changes as the first time.
///
/// A feed that reports items by id (Drive, Graph) names a removed item by the path it last knew
/// for that id, and forgets it as it reads the removal: read twice, the page would name nothing
/// the second time. The adapter asks ``recall(page:id:occurrence:)`` before interpreting an entry
/// and, when nothing is remembered, works from its current knowledge and hands what it used to
/// ``remember(_:page:id:occurrence:)``. An entry is keyed by its page token, its item's id and
/// how many entries of the page named that item before it (usually none: a page names an item
/// once), not by its position: a page read again may list its entries in another order (an item
/// changed again since is listed last), and each is still told what it was told the first time.
///
/// Bounded: the newest ``pageLimit`` pages and at most ``entryLimit`` entries are kept (64 and
/// 20,000 by default: a sync reads again the pages since the last token it saved, usually one);
/// a page older than those is interpreted from current knowledge again. The value is `Codable`,
/// so an adapter can keep it in its state file for a new process that reads the same token.
public struct ChangePageMemory<Value: Codable & Sendable>: Codable, Sendable {
    /// The entries of one page, by item id and occurrence (`<occurrence>:<id>`).
    private struct Page: Codable, Sendable {
        var token: String
        var slots: [String: Value]
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

    /// What was remembered for an entry of a page.
    /// - Parameters:
    ///   - page: The page's token.
    ///   - id: The item the entry is about.
    ///   - occurrence: How many entries of the page named the item before this one.
    /// - Returns: The value, or `nil` when none is remembered.
    public func recall(page: String, id: String, occurrence: Int = 0) -> Value? {
        pages.last(where: { $0.token == page })?.slots[Self.key(id, occurrence)]
    }

    /// Remembers what interpreting an entry used, replacing what was remembered for it.
    /// - Parameters:
    ///   - value: What was known.
    ///   - page: The page's token.
    ///   - id: The item the entry is about.
    ///   - occurrence: How many entries of the page named the item before this one.
    public mutating func remember(_ value: Value, page: String, id: String, occurrence: Int = 0) {
        let key = Self.key(id, occurrence)
        if let index = pages.lastIndex(where: { $0.token == page }) {
            if pages[index].slots.updateValue(value, forKey: key) == nil { entryCount += 1 }
        } else {
            pages.append(Page(token: page, slots: [key: value]))
            entryCount += 1
        }
        while pages.count > 1, pages.count > pageLimit || entryCount > entryLimit {
            entryCount -= pages.removeFirst().slots.count
        }
    }

    private static func key(_ id: String, _ occurrence: Int) -> String { "\(occurrence):\(id)" }

    /// Whether anything is remembered.
    public var isEmpty: Bool { pages.isEmpty }
}
