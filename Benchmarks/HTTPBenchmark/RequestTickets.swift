import Synchronization

/// Hands out request numbers to concurrent workers until `count` were taken, so that a worker
/// that finishes early takes more.
final class RequestTickets: Sendable {
    private let next = Atomic<Int>(0)
    private let count: Int

    init(count: Int) {
        self.count = count
    }

    /// The next request number, or `nil` when all were handed out.
    func take() -> Int? {
        let ticket = next.wrappingAdd(1, ordering: .relaxed).oldValue
        return ticket < count ? ticket : nil
    }
}
