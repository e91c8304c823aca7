import Synchronization

/// Hands out 0, 1, 2, ... to concurrent workers until a limit.
final class Counter: Sendable {
    private let next = Mutex(0)

    /// The next number, or `nil` once `limit` were handed out.
    func take(below limit: Int) -> Int? {
        next.withLock { value in
            guard value < limit else { return nil }
            defer { value += 1 }
            return value
        }
    }
}
