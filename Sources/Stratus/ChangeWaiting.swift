/// How a service waits for the next change in its feed, as its capabilities declare it, and how
/// soon a waiter wakes after another client's change.
///
/// ``Service/waitForChanges(after:timeout:)`` behaves the same whatever the mechanism; what
/// differs is the cost (requests while idle) and the latency (``wakeBound``).
///
/// ```swift
/// switch service.capabilities.changeWaiting.mechanism {
/// case .longPoll, .notification: print("woken by the provider or the store")
/// case .polling: print("polls every \(service.capabilities.changeWaiting.polling.maximum) when idle")
/// case .unavailable: print("no change feed")
/// }
/// ```
public struct ChangeWaiting: Hashable, Sendable {
    /// What wakes a waiter.
    public enum Mechanism: String, Hashable, Sendable {
        /// The provider holds a request open until something changes (Dropbox's
        /// `list_folder/longpoll`): about one request per provider timeout while idle.
        case longPoll
        /// The store itself tells the adapter when a change is committed, by any process (the
        /// `local` backend's journal): no requests at all while idle.
        case notification
        /// The adapter asks ``Service/changes(since:)`` on a ``PollingSchedule``: often after
        /// activity, seldom when idle.
        case polling
        /// There is no change feed to wait on; waiting throws
        /// ``ServiceError/Code/unsupported``.
        case unavailable
    }

    /// What wakes a waiter.
    public var mechanism: Mechanism
    /// The longest a waiter sleeps after another client's change is committed before it wakes,
    /// on a machine that is not overloaded. The contract suite holds a service to it.
    public var wakeBound: Duration
    /// The schedule a polling waiter follows (for ``Mechanism/polling``; other mechanisms keep
    /// it for the times they fall back to polling).
    public var polling: PollingSchedule

    /// Describes how a service waits.
    /// - Parameters:
    ///   - mechanism: What wakes a waiter.
    ///   - wakeBound: The longest a waiter sleeps after a change.
    ///   - polling: The schedule a polling waiter follows.
    public init(mechanism: Mechanism, wakeBound: Duration, polling: PollingSchedule = PollingSchedule()) {
        self.mechanism = mechanism
        self.wakeBound = wakeBound
        self.polling = polling
    }

    /// A waiter that polls on a schedule: it wakes at most one interval at the schedule's
    /// ``PollingSchedule/maximum`` (with its jitter) plus a second for the request after a
    /// change.
    public static func polling(_ schedule: PollingSchedule = PollingSchedule()) -> ChangeWaiting {
        ChangeWaiting(
            mechanism: .polling, wakeBound: schedule.longestInterval + .seconds(1), polling: schedule)
    }

    /// A waiter held by the provider until something changes.
    /// - Parameter wakeBound: How soon the provider answers a held request after a change.
    public static func longPoll(wakeBound: Duration) -> ChangeWaiting {
        ChangeWaiting(mechanism: .longPoll, wakeBound: wakeBound)
    }

    /// A waiter that the store wakes when a change is committed.
    /// - Parameter wakeBound: How soon the store wakes a waiter after a commit.
    public static func notification(wakeBound: Duration) -> ChangeWaiting {
        ChangeWaiting(mechanism: .notification, wakeBound: wakeBound)
    }

    /// No change feed to wait on.
    public static let unavailable = ChangeWaiting(mechanism: .unavailable, wakeBound: .zero)

    /// The longest timeout a wait keeps, a century: a longer one is cut to it, so that a
    /// deadline always fits the clock.
    public static let longestTimeout = Duration.seconds(100 * 365 * 86_400)
}

/// What ``Service/waitForChanges(after:timeout:)`` found.
public enum ChangeWaitOutcome: String, Hashable, Sendable {
    /// The feed has changes after the token: read them with ``Service/changes(since:)``. A
    /// service may wake a little early (the page then holds nothing new), never late.
    case changesAvailable
    /// The timeout passed with no change after the token.
    case timedOut
}
