import Synchronization

/// The requests a mock answered, oldest first, for tests to read.
///
/// Entries are recorded by ``RequestLogMiddleware`` with secrets already redacted, so the log
/// (and its ``description``) can be printed as it is. The log keeps at most ``capacity``
/// entries, dropping the oldest, so a long-running mock does not grow without bound; once full,
/// a new entry overwrites the oldest in place (a ring), so recording costs the same at any size.
public final class RequestLog: Sendable, CustomStringConvertible {
    /// The most entries kept.
    public let capacity: Int
    private let storage = Mutex(Ring())

    /// Creates an empty log.
    /// - Parameter capacity: The most entries kept; older ones are dropped first.
    public init(capacity: Int = 10_000) {
        self.capacity = max(1, capacity)
    }

    /// Every entry, oldest first.
    public var entries: [RecordedRequest] {
        storage.withLock { $0.inOrder() }
    }

    /// The number of entries.
    public var count: Int {
        storage.withLock { $0.slots.count }
    }

    /// The entries for one path, oldest first.
    /// - Parameter path: The exact path, such as `/oauth2/token`.
    public func entries(path: String) -> [RecordedRequest] {
        storage.withLock { $0.inOrder().filter { $0.path == path } }
    }

    /// The entries that match a condition, oldest first.
    /// - Parameter isIncluded: The condition.
    public func entries(where isIncluded: (RecordedRequest) -> Bool) -> [RecordedRequest] {
        storage.withLock { $0.inOrder().filter(isIncluded) }
    }

    /// Adds an entry, dropping the oldest when the log is full. The entry should already be
    /// redacted; ``RequestLogMiddleware`` does that.
    /// - Parameter request: The entry.
    public func append(_ request: RecordedRequest) {
        let capacity = capacity
        storage.withLock { ring in
            if ring.slots.count < capacity {
                ring.slots.append(request)
            } else {
                ring.slots[ring.oldest] = request
                ring.oldest = (ring.oldest + 1) % capacity
            }
        }
    }

    /// Removes every entry.
    public func clear() {
        storage.withLock { $0 = Ring() }
    }

    /// Every entry on its own line, oldest first.
    public var description: String {
        entries.map(\.description).joined(separator: "\n")
    }

    /// The kept entries: `slots` fills up to the capacity in arrival order; after that the
    /// oldest entry is at `oldest` and the rest follow it, wrapping around.
    private struct Ring {
        var slots: [RecordedRequest] = []
        var oldest = 0

        /// The entries, oldest first.
        func inOrder() -> [RecordedRequest] {
            Array(slots[oldest...] + slots[..<oldest])
        }
    }
}
