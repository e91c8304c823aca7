import Foundation
public import Stratus
import StratusHTTP
import Synchronization

/// Whether a request may be sent again after a failure: the one classification every adapter
/// uses, so that a request is repeated by one loop, `RetryPolicy.run(_:_:)`, and never
/// by a retrying request inside another retry loop.
public enum Repetition: Sendable, Equatable {
    /// Repeating cannot change the outcome (reads, idempotent writes, parts and appends whose
    /// offset protects them): repeated after every transient failure.
    case safe
    /// The outcome of a failed attempt may be unknown (a write that makes a file or a version,
    /// a delete, a conditional write): repeated only when the provider said it did not act
    /// (a rate limit).
    case onlyWhenRefused
    /// Sent once: the caller runs the retry loop itself (see
    /// `RetryPolicy.runWrite(lookFirst:_:)`).
    case never

    /// Whether a failure of a request of this kind may be repeated.
    /// - Parameter error: What the attempt threw.
    public func allowsRepeat(after error: any Error) -> Bool {
        switch self {
        case .safe: RetryPolicy.isTransient(error)
        case .onlyWhenRefused: Repetition.wasRefused(error)
        case .never: false
        }
    }

    /// Whether the provider refused a request, so that it certainly did not act: a rate limit.
    /// - Parameter error: What the attempt threw.
    public static func wasRefused(_ error: any Error) -> Bool {
        (error as? ServiceError)?.code == .rateLimited
    }

    /// Whether a failed request may have been carried out all the same: no answer (a network
    /// failure or a timeout), a 5xx, or an answer that could not be read (it came after the
    /// work). A rate limit is not: the provider refused it.
    /// - Parameter error: What the attempt threw.
    public static func leavesOutcomeUnknown(_ error: any Error) -> Bool {
        switch (error as? ServiceError)?.code {
        case .network?, .timeout?, .server?, .invalidResponse?: true
        default: false
        }
    }
}

extension RetryPolicy {
    /// Runs a request, repeating it as `repetition` allows: the one retry loop of the adapters.
    ///
    /// Every attempt counts: the operation runs at most ``/Stratus/RetryPolicy/maximumAttempts``
    /// times, and a `Retry-After` longer than ``/Stratus/RetryPolicy/maximumRetryAfter`` ends the
    /// loop with the provider's error.
    /// - Parameters:
    ///   - repetition: Which failures may be repeated.
    ///   - operation: One attempt, sending the request once; it receives the attempt number.
    /// - Returns: The operation's result.
    /// - Throws: The last failure.
    public func run<Result: Sendable>(
        _ repetition: Repetition,
        _ operation: @Sendable (_ attempt: Int) async throws -> Result
    ) async throws -> Result {
        try await run(isRetryable: { repetition.allowsRepeat(after: $0) }) { attempt in
            try await RetryMetrics.observe(attempt: attempt) { try await operation(attempt) }
        }
    }

    /// Runs a write whose outcome a failure can leave unknown, the "look first" protocol: a
    /// write the provider refused (a rate limit) is repeated; after a failure of unknown outcome
    /// (see ``Repetition/leavesOutcomeUnknown(_:)``) `lookFirst` checks whether the write
    /// happened before anything is sent again, and when it did, its result stands, so a retry
    /// never writes twice. The last failure of unknown outcome is looked at too, before it is
    /// thrown.
    ///
    /// The write must send its request once (``Repetition/never``): this is the only loop, and
    /// the write runs at most ``/Stratus/RetryPolicy/maximumAttempts`` times.
    /// - Parameters:
    ///   - lookFirst: The outcome when the write is found to have happened, or `nil`. Its
    ///     errors end the attempt (a transient one is repeated, and the next attempt looks
    ///     again).
    ///   - write: One attempt of the write; it receives the attempt number.
    /// - Returns: The write's outcome, or the one `lookFirst` found.
    /// - Throws: The write's last failure, or at once one that tells the outcome (a conflict).
    public func runWrite<Outcome: Sendable>(
        lookFirst: @Sendable () async throws -> Outcome?,
        _ write: @Sendable (_ attempt: Int) async throws -> Outcome
    ) async throws -> Outcome {
        let mustLook = Mutex(false)
        let lastAttempt = maximumAttempts
        let isRetryable: @Sendable (any Error) -> Bool = {
            Repetition.wasRefused($0) || Repetition.leavesOutcomeUnknown($0)
        }
        return try await run(isRetryable: isRetryable) { attempt in
            try await RetryMetrics.observe(attempt: attempt) {
                if mustLook.withLock({ $0 }) {
                    try Task.checkCancellation()
                    if let outcome = try await lookFirst() { return outcome }
                    mustLook.withLock { $0 = false }
                }
                do {
                    return try await write(attempt)
                } catch  where Repetition.leavesOutcomeUnknown(error) {
                    mustLook.withLock { $0 = true }
                    if attempt >= lastAttempt || exceedsRetryAfter(error), !Task.isCancelled,
                        let outcome = try? await lookFirst()
                    {
                        return outcome
                    }
                    throw error
                }
            }
        }
    }

    /// Whether a failure asks for a longer wait than ``maximumRetryAfter``, which ends the loop.
    private func exceedsRetryAfter(_ error: any Error) -> Bool {
        guard let wait = (error as? ServiceError)?.retryAfter else { return false }
        return wait > maximumRetryAfter
    }
}

extension RetryPolicy {
    /// Sends a request and reads its answer in the one loop: a failed request is repeated as
    /// `repetition` allows, and a safe request whose answer cannot be read (`read` throws
    /// ``/Stratus/ServiceError/Code/invalidResponse``) is sent once more, an answer damaged on
    /// the way rarely being damaged twice. Either way the request is sent at most
    /// ``/Stratus/RetryPolicy/maximumAttempts`` times.
    /// - Parameters:
    ///   - repetition: Which failures of the request may be repeated.
    ///   - send: One attempt of the request, sent once; it receives the attempt number.
    ///   - read: Reads an answer.
    /// - Returns: What `read` made of the answer.
    /// - Throws: The last failure.
    public func run<Answer: Sendable, Result: Sendable>(
        _ repetition: Repetition,
        send: @Sendable (_ attempt: Int) async throws -> Answer,
        read: @Sendable (Answer) async throws -> Result
    ) async throws -> Result {
        let unreadable = Mutex((count: 0, isLast: false))
        let isRetryable: @Sendable (any Error) -> Bool = { error in
            let (count, isLast) = unreadable.withLock { ($0.count, $0.isLast) }
            return isLast ? repetition == .safe && count < 2 : repetition.allowsRepeat(after: error)
        }
        return try await run(isRetryable: isRetryable) { attempt in
            try await RetryMetrics.observe(attempt: attempt) {
                unreadable.withLock { $0.isLast = false }
                let answer = try await send(attempt)
                do {
                    return try await read(answer)
                } catch let error as ServiceError where error.code == .invalidResponse {
                    unreadable.withLock { $0 = (count: $0.count + 1, isLast: true) }
                    throw error
                }
            }
        }
    }
}
