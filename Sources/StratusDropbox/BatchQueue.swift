/// The decisions of batch commits, apart from any I/O: which commits wait, which batch is in
/// flight and what to do next. One batch is in flight at a time; commits that arrive meanwhile
/// wait for the next; the first commit after a quiet spell opens a window for others to join.
struct BatchQueue<Key: Hashable & Sendable>: Sendable {
    /// What the driver does next.
    enum Action: Sendable, Equatable {
        /// Nothing.
        case none
        /// Wait the window, then call ``windowClosed(_:)`` with this number.
        case openWindow(Int)
        /// Send these commits as one batch, then call ``batchFinished(again:)``.
        case send([Key])
    }

    /// The most entries in one batch.
    let maximumEntries: Int
    /// The commits waiting for a batch, oldest first.
    private(set) var waiting: [Key] = []
    /// The batch in flight, if any.
    private(set) var inFlight: [Key]?
    /// Whether a window is open.
    private(set) var isWindowOpen = false
    /// The number of the last window opened, so that a late timer cannot close a newer one.
    private var windowNumber = 0

    /// Creates an empty queue.
    /// - Parameter maximumEntries: The most entries in one batch, at least 1.
    init(maximumEntries: Int) {
        self.maximumEntries = max(1, maximumEntries)
    }

    /// A commit arrives.
    mutating func add(_ key: Key) -> Action {
        waiting.append(key)
        guard inFlight == nil else { return .none }
        if isWindowOpen {
            return waiting.count >= maximumEntries ? takeBatch() : .none
        }
        isWindowOpen = true
        windowNumber &+= 1
        return .openWindow(windowNumber)
    }

    /// The window numbered `number` has passed: send what waits, unless a batch is already in
    /// flight or that window was closed already.
    mutating func windowClosed(_ number: Int) -> Action {
        guard isWindowOpen, number == windowNumber else { return .none }
        isWindowOpen = false
        return inFlight == nil ? takeBatch() : .none
    }

    /// A waiting commit is withdrawn (its caller was cancelled).
    /// - Returns: Whether it was still waiting; one already sent cannot be withdrawn.
    mutating func withdraw(_ key: Key) -> Bool {
        guard let index = waiting.firstIndex(of: key) else { return false }
        waiting.remove(at: index)
        return true
    }

    /// The batch in flight has ended; `again` are its commits to send once more (refused for
    /// contention), which go first in the next batch.
    mutating func batchFinished(again: [Key]) -> Action {
        inFlight = nil
        waiting.insert(contentsOf: again, at: 0)
        isWindowOpen = false
        return takeBatch()
    }

    private mutating func takeBatch() -> Action {
        guard !waiting.isEmpty else { return .none }
        let batch = Array(waiting.prefix(maximumEntries))
        waiting.removeFirst(batch.count)
        isWindowOpen = false
        inFlight = batch
        return .send(batch)
    }
}
