import Foundation
import Stratus
import StratusAdapterKit
import StratusHTTP
import Synchronization
import Testing

/// The adapters' one retry loop (StratusAdapterKit): `Retry-After` in both forms, and the "look
/// first" protocol for writes of unknown outcome.
@Suite struct RetryLoopTests {
    static let policy = RetryPolicy(maximumAttempts: 3, initialDelay: .milliseconds(1))

    @Test func retryAfterIsReadInSecondsAndAsADate() throws {
        let now = try #require(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT"))
        #expect(StratusHTTPHeaders([("Retry-After", "120")]).retryAfter(now: now) == .seconds(120))
        #expect(
            StratusHTTPHeaders([("Retry-After", "Sun, 06 Nov 1994 08:51:37 GMT")]).retryAfter(now: now) == .seconds(120)
        )
        // A date already past means no wait; anything else is no advice.
        #expect(StratusHTTPHeaders([("Retry-After", "Sun, 06 Nov 1994 08:00:00 GMT")]).retryAfter(now: now) == .zero)
        #expect(StratusHTTPHeaders([("Retry-After", "soon")]).retryAfter(now: now) == nil)
        #expect(StratusHTTPHeaders([("Retry-After", "-5")]).retryAfter(now: now) == nil)
        #expect(StratusHTTPHeaders().retryAfter(now: now) == nil)
        // A date centuries away stays a (very long) finite wait.
        #expect(
            (StratusHTTPHeaders([("Retry-After", "Fri, 01 Jan 9999 00:00:00 GMT")]).retryAfter(now: now) ?? .zero)
                > .seconds(300))
    }

    @Test func aRequestRunsAtMostMaximumAttemptsTimes() async throws {
        for repetition in [Repetition.safe, .onlyWhenRefused] {
            let attempts = Mutex(0)
            await #expect(throws: ServiceError.self) {
                try await Self.policy.run(repetition) { _ -> Int in
                    attempts.withLock { $0 += 1 }
                    throw ServiceError(.rateLimited, "slow down", retryAfter: .zero)
                }
            }
            #expect(attempts.withLock { $0 } == 3)
        }
        let once = Mutex(0)
        await #expect(throws: ServiceError.self) {
            try await Self.policy.run(.never) { _ -> Int in
                once.withLock { $0 += 1 }
                throw ServiceError(.rateLimited, "slow down")
            }
        }
        #expect(once.withLock { $0 } == 1)
    }

    @Test func aRetryAfterBeyondThePolicysLimitEndsTheLoop() async throws {
        let attempts = Mutex(0)
        await #expect(throws: ServiceError.self) {
            try await Self.policy.run(.safe) { _ -> Int in
                attempts.withLock { $0 += 1 }
                throw ServiceError(.rateLimited, "come back tomorrow", retryAfter: .seconds(86_400))
            }
        }
        #expect(attempts.withLock { $0 } == 1)
    }

    @Test func aWriteOfUnknownOutcomeIsLookedForBeforeItIsSentAgain() async throws {
        let events = Mutex<[String]>([])
        let result = try await Self.policy.runWrite(lookFirst: { () -> String? in
            events.withLock { $0.append("look") }
            return events.withLock { $0.filter { $0 == "look" }.count } == 2 ? "found" : nil
        }) { attempt in
            events.withLock { $0.append("write \(attempt)") }
            throw ServiceError(.network, "the connection dropped")
        }
        #expect(result == "found")
        #expect(events.withLock { $0 } == ["write 1", "look", "write 2", "look"])
    }

    @Test func aRefusedWriteIsSentAgainWithoutLookingAndTheLastFailureIsLookedAt() async throws {
        let events = Mutex<[String]>([])
        let error = await #expect(throws: ServiceError.self) {
            try await Self.policy.runWrite(lookFirst: { () -> Int? in
                events.withLock { $0.append("look") }
                return nil
            }) { attempt -> Int in
                events.withLock { $0.append("write \(attempt)") }
                if attempt < 3 { throw ServiceError(.rateLimited, "slow down", retryAfter: .zero) }
                throw ServiceError(.timeout, "no answer")
            }
        }
        #expect(error?.code == .timeout)
        #expect(events.withLock { $0 } == ["write 1", "write 2", "write 3", "look"])
    }

    @Test func aWriteThatTellsItsOutcomeIsNotRepeated() async throws {
        let attempts = Mutex(0)
        let error = await #expect(throws: ServiceError.self) {
            try await Self.policy.runWrite(lookFirst: { () -> Int? in nil }) { _ -> Int in
                attempts.withLock { $0 += 1 }
                throw ServiceError(.conflict, "in the way")
            }
        }
        #expect(error?.code == .conflict)
        #expect(attempts.withLock { $0 } == 1)
    }
}
