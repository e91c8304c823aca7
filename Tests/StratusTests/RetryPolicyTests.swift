import Foundation
import Stratus
import Synchronization
import Testing

@Suite("RetryPolicy")
struct RetryPolicyTests {
    /// Counts calls from any task.
    final class CallCounter: Sendable {
        private let count = Mutex(0)
        func increment() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    static let transient = ServiceError(.server, "The provider failed.", httpStatus: 503)

    @Test("with no jitter drawn, waits double from the initial delay up to the cap")
    func delaysWithoutJitter() {
        let policy = RetryPolicy(
            maximumAttempts: 10, initialDelay: .milliseconds(100), multiplier: 2, maximumDelay: .seconds(1), jitter: 0.5
        )
        let delays = (1...7).map { policy.delay(afterAttempt: $0, randomUnit: 0) }
        #expect(delays == [100, 200, 400, 800, 1000, 1000, 1000].map { Duration.milliseconds($0) })
    }

    @Test("with full jitter drawn, each wait is shortened by the jitter share")
    func delaysWithFullJitter() {
        let policy = RetryPolicy(
            maximumAttempts: 10, initialDelay: .milliseconds(100), multiplier: 2, maximumDelay: .seconds(1), jitter: 0.5
        )
        let delays = (1...6).map { policy.delay(afterAttempt: $0, randomUnit: 1) }
        #expect(delays == [50, 100, 200, 400, 500, 500].map { Duration.milliseconds($0) })
    }

    @Test("random waits stay between the jittered and the full wait")
    func randomDelayBounds() {
        let policy = RetryPolicy(
            initialDelay: .milliseconds(100), multiplier: 2, maximumDelay: .seconds(1), jitter: 0.5)
        for _ in 0..<100 {
            let delay = policy.delay(afterAttempt: 3)
            #expect(delay >= .milliseconds(200) && delay <= .milliseconds(400))
        }
    }

    @Test("a Retry-After longer than the computed wait wins; a shorter one does not")
    func retryAfterWins() {
        let policy = RetryPolicy(initialDelay: .milliseconds(100), multiplier: 2, maximumDelay: .seconds(1), jitter: 0)
        #expect(policy.delay(afterAttempt: 1, retryAfter: .seconds(3), randomUnit: 0) == .seconds(3))
        #expect(policy.delay(afterAttempt: 1, retryAfter: .milliseconds(10), randomUnit: 0) == .milliseconds(100))
        // Retry-After is not capped by maximumDelay: the provider's word is honoured.
        #expect(policy.delay(afterAttempt: 9, retryAfter: .seconds(5), randomUnit: 0) == .seconds(5))
    }

    @Test("a Retry-After is spread by the jittered share of the computed wait, never shortened")
    func retryAfterIsSpread() {
        let policy = RetryPolicy(
            initialDelay: .milliseconds(100), multiplier: 2, maximumDelay: .seconds(1), jitter: 0.5)
        #expect(policy.delay(afterAttempt: 1, retryAfter: .seconds(1), randomUnit: 0) == .seconds(1))
        #expect(policy.delay(afterAttempt: 1, retryAfter: .seconds(1), randomUnit: 1) == .milliseconds(1050))
        #expect(policy.delay(afterAttempt: 3, retryAfter: .seconds(1), randomUnit: 1) == .milliseconds(1200))
        let waits = Set((0..<50).map { _ in policy.delay(afterAttempt: 2, retryAfter: .seconds(1)) })
        #expect(waits.allSatisfy { $0 >= .seconds(1) && $0 <= .milliseconds(1100) })
        #expect(waits.count > 1)
    }

    @Test("the initializer keeps values in range")
    func clamping() {
        let policy = RetryPolicy(maximumAttempts: 0, multiplier: 0.5, jitter: 3)
        #expect(policy.maximumAttempts == 1)
        #expect(policy.multiplier == 1)
        #expect(policy.jitter == 1)
        #expect(RetryPolicy(jitter: -1).jitter == 0)
        #expect(RetryPolicy.never.maximumAttempts == 1)
    }

    @Test("transient failures are retried and the success is returned")
    func retriesTransient() async throws {
        let policy = RetryPolicy(maximumAttempts: 5, initialDelay: .milliseconds(1), maximumDelay: .milliseconds(2))
        let counter = CallCounter()
        let result = try await policy.run { attempt in
            counter.increment()
            if attempt < 3 { throw Self.transient }
            return "done on attempt \(attempt)"
        }
        #expect(result == "done on attempt 3")
        #expect(counter.value == 3)
    }

    @Test("attempts stop at maximumAttempts and the last failure is thrown")
    func stopsAtMaximum() async throws {
        let policy = RetryPolicy(maximumAttempts: 3, initialDelay: .milliseconds(1), maximumDelay: .milliseconds(2))
        let counter = CallCounter()
        let error = await #expect(throws: ServiceError.self) {
            try await policy.run { attempt -> Int in
                counter.increment()
                throw ServiceError(.network, "Attempt \(attempt) failed.")
            }
        }
        #expect(error?.message == "Attempt 3 failed.")
        #expect(counter.value == 3)
    }

    @Test("a failure that is not transient is thrown at once")
    func noRetryForPermanent() async throws {
        let policy = RetryPolicy(maximumAttempts: 5, initialDelay: .milliseconds(1))
        let counter = CallCounter()
        let error = await #expect(throws: ServiceError.self) {
            try await policy.run { _ -> Int in
                counter.increment()
                throw ServiceError(.conflict, "Changed meanwhile.")
            }
        }
        #expect(error?.code == .conflict)
        #expect(counter.value == 1)

        struct Other: Error {}
        await #expect(throws: Other.self) { try await policy.run { _ -> Int in throw Other() } }
    }

    @Test("a custom classifier decides what is retried")
    func customClassifier() async throws {
        let policy = RetryPolicy(maximumAttempts: 4, initialDelay: .milliseconds(1))
        let counter = CallCounter()
        await #expect(throws: ServiceError.self) {
            try await policy.run(isRetryable: { _ in false }) { _ -> Int in
                counter.increment()
                throw Self.transient
            }
        }
        #expect(counter.value == 1)
    }

    @Test("a Retry-After within the limit is waited for")
    func honoursRetryAfter() async throws {
        let policy = RetryPolicy(
            maximumAttempts: 2, initialDelay: .milliseconds(1), maximumDelay: .milliseconds(1),
            maximumRetryAfter: .seconds(5))
        let clock = ContinuousClock()
        let start = clock.now
        let result = try await policy.run { attempt in
            if attempt == 1 { throw ServiceError(.rateLimited, "Slow down.", retryAfter: .milliseconds(60)) }
            return attempt
        }
        #expect(result == 2)
        #expect(clock.now - start >= .milliseconds(60))
    }

    @Test("a Retry-After beyond maximumRetryAfter is thrown at once, without waiting")
    func retryAfterTooLong() async throws {
        let policy = RetryPolicy(
            maximumAttempts: 5, initialDelay: .milliseconds(1), maximumRetryAfter: .milliseconds(100))
        let counter = CallCounter()
        let error = await #expect(throws: ServiceError.self) {
            try await policy.run { _ -> Int in
                counter.increment()
                throw ServiceError(.rateLimited, "Come back in an hour.", retryAfter: .seconds(3600))
            }
        }
        #expect(error?.code == .rateLimited)
        #expect(error?.retryAfter == .seconds(3600))
        // One attempt, no second: the hour was not waited out.
        #expect(counter.value == 1)
    }

    @Test("cancelling during a wait ends it quickly with cancelled")
    func cancellationDuringWait() async throws {
        let policy = RetryPolicy(maximumAttempts: 3, initialDelay: .seconds(60), maximumDelay: .seconds(60), jitter: 0)
        let (attempts, continuation) = AsyncStream.makeStream(of: Int.self)
        let task = Task {
            try await policy.run { attempt -> Int in
                continuation.yield(attempt)
                throw Self.transient
            }
        }
        var iterator = attempts.makeAsyncIterator()
        #expect(await iterator.next() == 1)

        // Cancelled, not a second attempt after the 60-second wait.
        task.cancel()
        let result = await task.result
        guard case .failure(let failure) = result else {
            Issue.record("the cancelled run returned a value")
            return
        }
        #expect((failure as? ServiceError)?.code == .cancelled)
        continuation.finish()
    }
}
