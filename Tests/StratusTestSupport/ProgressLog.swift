import Synchronization

/// Collects progress values reported from any thread, in the order they arrive.
public final class ProgressLog: Sendable {
    private let stored = Mutex<[Int64]>([])

    /// An empty log.
    public init() {}

    /// Records one reported value.
    public func add(_ value: Int64) { stored.withLock { $0.append(value) } }

    /// Every value recorded so far.
    public var values: [Int64] { stored.withLock { $0 } }
}
