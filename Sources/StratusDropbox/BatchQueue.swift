/// The decisions of batch commits, apart from any I/O: which commits wait, which batch is in
/// flight and what to do next.
///
/// One batch is in flight at a time. Uploads announce themselves when they begin, so the queue
/// knows who is on the way: a commit that arrives while no batch is in flight is sent at once
/// when no other announced upload is still sending its bytes, and otherwise waits for them,
/// for at most the window. A lone upload is never delayed, and concurrent uploads that start
/// together are committed together. Commits that arrive while a batch is in flight go in the
/// next batch, which also waits (at most the window) for the uploads the ended batch's callers
/// start next.
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
    /// Uploads announced and not yet arrived (still sending their bytes) nor abandoned.
    private(set) var announced = 0
    /// Whether a window is open.
    private(set) var isWindowOpen = false
    /// The number of the last window opened, so that a late timer cannot close a newer one.
    private var windowNumber = 0

    /// Creates an empty queue.
    /// - Parameter maximumEntries: The most entries in one batch, at least 1.
    init(maximumEntries: Int) {
        self.maximumEntries = max(1, maximumEntries)
    }

    /// An upload begins: its commit will arrive, or it is abandoned.
    mutating func announce() {
        announced += 1
    }

    /// An announced upload ends without a commit (it failed or was cancelled first).
    mutating func abandon() -> Action {
        announced = max(0, announced - 1)
        return isWindowOpen && announced == 0 && inFlight == nil ? takeBatch() : .none
    }

    /// A commit arrives.
    /// - Parameter wasAnnounced: Whether its upload announced itself.
    mutating func add(_ key: Key, wasAnnounced: Bool = false) -> Action {
        waiting.append(key)
        if wasAnnounced { announced = max(0, announced - 1) }
        guard inFlight == nil else { return .none }
        if announced == 0 || waiting.count >= maximumEntries { return takeBatch() }
        if isWindowOpen { return .none }
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
    ///
    /// The callers of the commits it settled are free to start their next uploads. When fewer
    /// commits wait than it settled, the next batch waits for those uploads too (for at most the
    /// window; it goes as soon as every announced upload has arrived): sent at once, it would
    /// leave them to the batch after, and concurrent uploads would split into two half batches
    /// that take turns. When more wait, they go at once: the wait would hold many for few.
    mutating func batchFinished(again: [Key]) -> Action {
        let settled = (inFlight?.count ?? 0) - again.count
        inFlight = nil
        waiting.insert(contentsOf: again, at: 0)
        guard !waiting.isEmpty, settled >= waiting.count, waiting.count < maximumEntries else {
            return takeBatch()
        }
        isWindowOpen = true
        windowNumber &+= 1
        return .openWindow(windowNumber)
    }

    private mutating func takeBatch() -> Action {
        isWindowOpen = false
        guard !waiting.isEmpty else { return .none }
        let batch = Array(waiting.prefix(maximumEntries))
        waiting.removeFirst(batch.count)
        inFlight = batch
        return .send(batch)
    }
}
