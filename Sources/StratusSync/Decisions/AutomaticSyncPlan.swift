import Stratus

/// When automatic sync runs next, apart from any I/O: the events that happened (local writes,
/// a change on the service, a failure, a request) in, the time of the next sync out. Tested by
/// tables of cases in `AutomaticSyncPlanTests`.
struct AutomaticSyncPlan: Sendable {
    typealias Instant = ContinuousClock.Instant

    let configuration: AutomaticSyncConfiguration
    /// The first local write not covered by a sync that started after it.
    private(set) var firstWrite: Instant?
    /// The latest such write.
    private(set) var lastWrite: Instant?
    /// The service reported a change that no sync has read yet.
    private(set) var remoteChanged = false
    /// A sync was asked for (at start, or by the app): it runs at once, whatever the backoff.
    private(set) var asked = false
    /// Failures in a row.
    private(set) var failures = 0
    /// When a failed sync is tried again.
    private(set) var retryAt: Instant?
    /// The last sync failed in a way only the app can settle (a replaced remote, a mass
    /// deletion, a newer format): nothing runs until it asks.
    private(set) var waitsForApp = false
    /// The running sync was started by the service's report of a change alone.
    private(set) var runsForWake = false
    /// Syncs in a row started by a report of a change that found nothing to pull.
    private(set) var emptyWakes = 0
    /// A report of a change is not acted on before this, after wakes that found nothing: a
    /// notifier that wakes without cause (a lying or broken one) cannot drive the device
    /// faster than the pause, which doubles up to ``AutomaticSyncConfiguration/maximumRetry``.
    private(set) var quietUntil: Instant?

    init(configuration: AutomaticSyncConfiguration) {
        self.configuration = configuration
    }

    /// The app wrote something to push.
    mutating func localWrite(at now: Instant) {
        if firstWrite == nil { firstWrite = now }
        lastWrite = now
    }

    /// The service has changes to read.
    mutating func remoteChange() {
        remoteChanged = true
    }

    /// Run as soon as possible, backoff or not (the app asked, took a way out of an error, or
    /// the network is back).
    mutating func ask() {
        asked = true
        waitsForApp = false
    }

    /// A sync starts: it covers every write and change reported so far.
    mutating func syncStarted() {
        runsForWake = remoteChanged && firstWrite == nil && !asked
        firstWrite = nil
        lastWrite = nil
        remoteChanged = false
        asked = false
    }

    /// A sync got through.
    /// - Parameters:
    ///   - foundChanges: Whether it pulled anything (a record, or a conflict settled).
    ///   - now: When it ended.
    ///   - random: A number from 0 to 1 for the jitter of a quiet pause (0.5 means none).
    mutating func syncSucceeded(foundChanges: Bool, at now: Instant, random: Double) {
        failures = 0
        retryAt = nil
        waitsForApp = false
        guard runsForWake else { return }
        if foundChanges {
            emptyWakes = 0
            quietUntil = nil
        } else {
            // One empty wake is ordinary (a service may wake early, or for this device's own
            // write); from the second in a row on, each costs the next a growing pause.
            emptyWakes += 1
            if emptyWakes >= 2 { quietUntil = now + quietPause(random: random) }
        }
    }

    /// The pause before a report of a change is acted on after the current run of empty wakes.
    func quietPause(random: Double) -> Duration {
        let schedule = PollingSchedule(
            minimum: configuration.firstRetry, maximum: configuration.maximumRetry, growth: 2,
            jitter: configuration.jitter)
        return schedule.interval(afterQuietPolls: max(0, emptyWakes - 2), random: random)
    }

    /// A sync failed in a way that only the app can settle: no retry until it asks (retrying
    /// would only ask the service the same question again).
    mutating func syncNeedsApp() {
        failures = 0
        retryAt = nil
        waitsForApp = true
    }

    /// A sync failed; it is tried again after a pause that doubles with each failure in a row,
    /// capped lower while offline, moved by the jitter.
    /// - Parameter random: A number from 0 to 1 (0.5 means no jitter).
    mutating func syncFailed(offline: Bool, at now: Instant, random: Double) {
        failures += 1
        retryAt = now + retryPause(offline: offline, random: random)
    }

    /// The pause after the current run of failures: the core's ``/Stratus/PollingSchedule``
    /// from the first retry, doubling up to the cap, with the configured jitter.
    func retryPause(offline: Bool, random: Double) -> Duration {
        let cap = offline ? configuration.maximumOfflineRetry : configuration.maximumRetry
        let schedule = PollingSchedule(
            minimum: configuration.firstRetry, maximum: cap, growth: 2, jitter: configuration.jitter)
        return schedule.interval(afterQuietPolls: max(0, failures - 1), random: random)
    }

    /// When the next sync should start; `nil` when nothing is waiting (wait for an event).
    /// A request starts one at once; otherwise pending work waits for its debounce and for the
    /// retry time after a failure, and a failure alone is retried at its retry time (so a
    /// device that could not finish tries again, and an offline one notices the network); a
    /// failure only the app can settle waits for a request.
    func nextSync(now: Instant) -> Instant? {
        if asked { return now }
        if waitsForApp { return nil }
        var due: Instant?
        if remoteChanged { due = max(now, quietUntil ?? now) }
        if let lastWrite, let firstWrite {
            let write = min(lastWrite + configuration.debounce, firstWrite + configuration.maximumDelay)
            due = due.map { min($0, write) } ?? write
        }
        if let retryAt {
            return max(due ?? retryAt, retryAt)
        }
        return due
    }
}
