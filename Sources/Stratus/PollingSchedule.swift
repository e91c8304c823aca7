/// When a polling waiter asks for changes: soon after activity, then less and less often while
/// nothing changes, up to a cap, each interval moved by a random share so that many devices do
/// not poll in step.
///
/// The schedule is a pure function of how many polls in a row found nothing; a wait that finds a
/// change starts the next one at ``minimum`` again. Remotes set it with the `poll_interval`
/// option (``BackendOption/pollInterval``).
///
/// ```swift
/// let schedule = PollingSchedule(minimum: .seconds(1), maximum: .seconds(30))
/// schedule.interval(afterQuietPolls: 0, random: 0.5)   // 1 s
/// schedule.interval(afterQuietPolls: 10, random: 0.5)  // 30 s
/// ```
public struct PollingSchedule: Hashable, Sendable {
    /// The interval after a change was seen. Default 2 seconds.
    public var minimum: Duration
    /// The longest interval, reached while nothing changes. Default 30 seconds.
    public var maximum: Duration
    /// How much each quiet poll stretches the next interval (at least 1). Default 2.
    public var growth: Double
    /// The largest share of an interval added or taken away at random, from 0 to 0.5. Default
    /// 0.1.
    public var jitter: Double

    /// Creates a schedule. Values out of range are brought into it: `maximum` is at least
    /// `minimum`, `minimum` at least 10 milliseconds, `growth` at least 1, `jitter` between 0
    /// and 0.5.
    /// - Parameters:
    ///   - minimum: The interval after a change.
    ///   - maximum: The longest interval.
    ///   - growth: The factor between two quiet intervals.
    ///   - jitter: The random share of each interval.
    public init(
        minimum: Duration = .seconds(2), maximum: Duration = .seconds(30), growth: Double = 2, jitter: Double = 0.1
    ) {
        let floor = Duration.milliseconds(10)
        self.minimum = max(minimum, floor)
        self.maximum = max(maximum, max(minimum, floor))
        self.growth = growth.isFinite ? max(1, growth) : 2
        self.jitter = jitter.isFinite ? min(0.5, max(0, jitter)) : 0.1
    }

    /// The longest interval this schedule can produce, jitter included.
    public var longestInterval: Duration { maximum * (1 + jitter) }

    /// The interval before the next poll.
    /// - Parameters:
    ///   - quietPolls: How many polls in a row found nothing (0 right after a change).
    ///   - random: A number from 0 to 1 (0.5 means no jitter); values outside are clamped.
    /// - Returns: `minimum × growth^quietPolls`, capped at `maximum`, moved by up to `jitter`
    ///   of itself.
    public func interval(afterQuietPolls quietPolls: Int, random: Double) -> Duration {
        let minimumSeconds = Self.seconds(minimum)
        let maximumSeconds = Self.seconds(maximum)
        var seconds = minimumSeconds
        var step = 0
        while step < quietPolls, seconds < maximumSeconds, growth > 1 {
            seconds *= growth
            step += 1
        }
        seconds = min(seconds, maximumSeconds)
        let share = (min(1, max(0, random.isFinite ? random : 0.5)) * 2 - 1) * jitter
        return .milliseconds(Int64((seconds * (1 + share) * 1000).rounded()))
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
