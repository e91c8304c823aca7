import Stratus
import StratusAdapterKit
import Synchronization
import Testing

/// The async lock: one holder per key, waiters served in arrival order, other keys free, and a
/// waiter whose task is cancelled leaves the line without ever holding the lock.
@Suite struct AsyncLockTests {
    /// What the holders saw, shared by the tasks of a test.
    private final class Log: Sendable {
        let entries = Mutex<[Int]>([])
        func add(_ entry: Int) { entries.withLock { $0.append(entry) } }
        var all: [Int] { entries.withLock { $0 } }
    }

    @Test func waitersAreServedInArrivalOrderAndOtherKeysAreFree() async throws {
        let lock = AsyncLock(cancelledMessage: "cancelled")
        let log = Log()
        let (stream, release) = AsyncStream<Void>.makeStream()
        let holder = Task { @Sendable in
            try await lock.withLock("a") { @Sendable in
                log.add(0)
                for await _ in stream { break }
            }
        }
        while log.all.isEmpty { await Task.yield() }
        // Another key is not held up by "a".
        try await lock.withLock("b") { @Sendable in log.add(-1) }
        var waiters: [Task<Void, any Error>] = []
        for number in 1...5 {
            waiters.append(Task { @Sendable in try await lock.withLock("a") { @Sendable in log.add(number) } })
            // Each waiter is in line before the next one starts.
            while lock.waiting(for: "a") < number { await Task.yield() }
        }
        release.yield()
        try await holder.value
        for waiter in waiters { try await waiter.value }
        #expect(log.all == [0, -1, 1, 2, 3, 4, 5])
    }

    @Test func aCancelledWaiterLeavesTheLineWithoutHoldingTheLock() async throws {
        let lock = AsyncLock(cancelledMessage: "gave up waiting")
        let log = Log()
        let (stream, release) = AsyncStream<Void>.makeStream()
        let holder = Task { @Sendable in
            try await lock.withLock { @Sendable in
                log.add(0)
                for await _ in stream { break }
            }
        }
        while log.all.isEmpty { await Task.yield() }
        let waiter = Task { @Sendable in try await lock.withLock { @Sendable in log.add(1) } }
        waiter.cancel()
        let error = await #expect(throws: ServiceError.self) { try await waiter.value }
        #expect(error?.code == .cancelled)
        #expect(error?.message == "gave up waiting")
        release.yield()
        try await holder.value
        #expect(log.all == [0], "the cancelled waiter never held the lock")
        // The lock is free again.
        try await lock.withLock { @Sendable in log.add(2) }
        #expect(log.all == [0, 2])
    }
}
