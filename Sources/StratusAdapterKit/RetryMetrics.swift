import Stratus
import Synchronization

/// The metrics of the adapters' retry loop (see ``Stratus/RetryPolicy/run(_:_:)``), with the
/// dimension `backend`:
///
/// - `stratus_retries_total` (counter): attempts after the first, each one a request sent again;
/// - `stratus_rate_limits_total` (counter): attempts the provider refused with a rate limit
///   (a 429, or the provider's own way of saying so);
/// - `stratus_rate_limit_retry_after_seconds` (timer): the waits those refusals asked for.
///
/// A loop inside another one (a request sent once, `Repetition.never`, inside its caller's
/// loop) does not count a refusal twice: the innermost loop that sees it counts it.
enum RetryMetrics {
    /// Whether the innermost loop already counted the refusal being thrown.
    private final class Tally: Sendable {
        private let counted = Mutex(false)
        func mark() { counted.withLock { $0 = true } }
        func take() -> Bool {
            counted.withLock { value in
                defer { value = false }
                return value
            }
        }
    }

    @TaskLocal private static var enclosing: Tally?

    /// Runs one attempt of a retry loop, counting it.
    /// - Parameters:
    ///   - attempt: The attempt's number, counting from 1.
    ///   - operation: The attempt.
    /// - Returns: What the attempt returns.
    static func observe<Result: Sendable>(
        attempt: Int, _ operation: @Sendable () async throws -> Result
    ) async throws -> Result {
        let telemetry = StratusTelemetry.current
        if attempt > 1 {
            telemetry.increment("stratus_retries_total", dimensions: [("backend", telemetry.backendDimension)])
        }
        let parent = enclosing
        let tally = Tally()
        do {
            return try await $enclosing.withValue(tally) { try await operation() }
        } catch {
            if Repetition.wasRefused(error), !tally.take() {
                let dimensions = [("backend", telemetry.backendDimension)]
                telemetry.increment("stratus_rate_limits_total", dimensions: dimensions)
                if let wait = (error as? ServiceError)?.retryAfter {
                    telemetry.record("stratus_rate_limit_retry_after_seconds", duration: wait, dimensions: dimensions)
                }
                parent?.mark()
            } else if Repetition.wasRefused(error) {
                parent?.mark()
            }
            throw error
        }
    }
}
