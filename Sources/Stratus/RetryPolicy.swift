/// When and how often adapters repeat a failed request: exponential backoff with jitter, a cap
/// on each wait and on the number of attempts, and a provider's Retry-After always honoured.
///
/// The policy repeats only what the caller says is safe to repeat: pass a classifier to
/// ``run(isRetryable:_:)`` for writes whose outcome is unknown after a failure.
public struct RetryPolicy: Hashable, Sendable {
    /// The most attempts in all, the first one included. 1 means never retry.
    public var maximumAttempts: Int
    /// The wait before the second attempt.
    public var initialDelay: Duration
    /// How much each wait grows over the one before.
    public var multiplier: Double
    /// The longest computed wait between two attempts.
    public var maximumDelay: Duration
    /// The share of each computed wait that is randomized, from 0 (none) to 1: a wait `d` becomes
    /// a random value in `d × (1 − jitter) ... d`, so many clients do not retry in step.
    public var jitter: Double
    /// The longest Retry-After the policy will wait for. A provider that asks for longer gets
    /// its error returned to the caller instead of a sleeping task.
    public var maximumRetryAfter: Duration

    /// Creates a policy.
    public init(
        maximumAttempts: Int = 5,
        initialDelay: Duration = .milliseconds(250),
        multiplier: Double = 2,
        maximumDelay: Duration = .seconds(30),
        jitter: Double = 0.5,
        maximumRetryAfter: Duration = .seconds(300)
    ) {
        self.maximumAttempts = max(1, maximumAttempts)
        self.initialDelay = initialDelay
        self.multiplier = max(1, multiplier)
        self.maximumDelay = maximumDelay
        self.jitter = min(max(jitter, 0), 1)
        self.maximumRetryAfter = maximumRetryAfter
    }

    /// The policy adapters use unless configured otherwise.
    public static let standard = RetryPolicy()

    /// A policy that never retries.
    public static let never = RetryPolicy(maximumAttempts: 1)

    /// The wait before the next attempt.
    /// - Parameters:
    ///   - attempt: The attempt that just failed, counting from 1.
    ///   - retryAfter: What the provider asked for, if anything; the wait is never shorter, and
    ///     up to the jittered share of the computed wait longer, so clients refused at once do
    ///     not all return at once.
    ///   - randomUnit: A value in `0...1` that picks the jitter; random by default.
    /// - Returns: How long to wait.
    public func delay(
        afterAttempt attempt: Int, retryAfter: Duration? = nil, randomUnit: Double = Double.random(in: 0...1)
    ) -> Duration {
        let exponent = Double(max(0, attempt - 1))
        let base = seconds(initialDelay) * pow(multiplier, exponent)
        let capped = min(base, seconds(maximumDelay))
        let jittered = capped * (1 - jitter * min(max(randomUnit, 0), 1))
        let computed = Duration.milliseconds(Int64((jittered * 1000).rounded()))
        if let retryAfter, retryAfter > computed {
            // Never sooner than asked, but spread: clients refused together (a write lock's
            // contention) would otherwise all come back at the same instant and collide again.
            let spread = capped * jitter * min(max(randomUnit, 0), 1)
            return retryAfter + Duration.milliseconds(Int64((spread * 1000).rounded()))
        }
        return computed
    }

    /// Runs an operation, repeating it after transient failures.
    ///
    /// Waits are task sleeps: cancelling the task ends the wait at once with
    /// ``ServiceError/Code/cancelled``.
    /// - Parameters:
    ///   - isRetryable: Whether a failure may be repeated; by default a ``ServiceError`` whose
    ///     code ``ServiceError/Code/isTransient``.
    ///   - operation: The work; it receives the attempt number, counting from 1.
    /// - Returns: The operation's result.
    /// - Throws: The last failure, once attempts run out, a failure is not retryable, or the
    ///   provider asks for a longer wait than ``maximumRetryAfter``.
    public func run<Result: Sendable>(
        isRetryable: @Sendable (any Error) -> Bool = RetryPolicy.isTransient,
        _ operation: @Sendable (_ attempt: Int) async throws -> Result
    ) async throws -> Result {
        var attempt = 1
        while true {
            do {
                return try await operation(attempt)
            } catch {
                let retryAfter = (error as? ServiceError)?.retryAfter
                guard attempt < maximumAttempts, isRetryable(error) else { throw error }
                if let retryAfter, retryAfter > maximumRetryAfter { throw error }
                let wait = delay(afterAttempt: attempt, retryAfter: retryAfter)
                do {
                    try await Task.sleep(for: wait)
                } catch {
                    throw ServiceError(.cancelled, "The operation was cancelled while waiting to retry.")
                }
                attempt += 1
            }
        }
    }

    /// The default classifier: a ``ServiceError`` with a transient code.
    public static func isTransient(_ error: any Error) -> Bool {
        (error as? ServiceError)?.code.isTransient ?? false
    }

    private func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}

private func pow(_ base: Double, _ exponent: Double) -> Double {
    var result = 1.0
    var remaining = Int(exponent)
    while remaining > 0 {
        result *= base
        remaining -= 1
        if result > 1e12 { break }
    }
    return result
}
