import MockSupport
import Synchronization

/// A mock's fault rules as an adversarial run uses them: its look-up and commit routes, and the
/// rules that turn a ``FaultWeather`` into late answers, 5xx, 429 and lost answers on the wire.
public final class WireFaults: Sendable {
    /// A route pattern and method (see ``MockSupport/FaultRule/route``).
    public struct Route: Sendable, Hashable {
        /// The path pattern.
        public var path: String
        /// The method.
        public var method: String

        /// Creates a route.
        /// - Parameters:
        ///   - path: The path pattern, `*` for any run of characters.
        ///   - method: The method.
        public init(_ path: String, _ method: String) {
            self.path = path
            self.method = method
        }
    }

    /// The mock's fault rules.
    public let injector: FaultInjector
    /// The routes of look-ups: metadata and the precondition reads before a write.
    public let lookups: [Route]
    /// The routes of commits: the writes of a file's content.
    public let commits: [Route]
    private let retired = Mutex(0)

    /// Creates the wire faults of a mock.
    /// - Parameters:
    ///   - injector: The mock's fault rules.
    ///   - lookups: Its look-up routes.
    ///   - commits: Its commit routes.
    public init(injector: FaultInjector, lookups: [Route], commits: [Route]) {
        self.injector = injector
        self.lookups = lookups
        self.commits = commits
    }

    /// Faults injected so far, also by rules since removed.
    public var injectedCount: Int { retired.withLock { $0 } + injector.injectedCount }

    /// Replaces the rules with the weather's: late answers on look-ups and commits, 5xx and 429 on
    /// every route, lost answers (the request carried out, the connection closed before the
    /// answer) on commits.
    /// - Parameters:
    ///   - weather: The weather.
    ///   - seed: The seed of the rules' draws.
    public func apply(_ weather: FaultWeather, seed: UInt64) {
        let before = injector.injectedCount
        injector.removeAll()
        retired.withLock { $0 += before }
        var seeds = SeededGenerator(seed: seed)
        func add(_ route: Route?, _ chance: Double, _ fault: Fault) {
            guard chance > 0 else { return }
            injector.add(
                FaultRule(
                    route: route?.path ?? "*", method: route?.method, times: 0, probability: chance, seed: seeds.next(),
                    fault: fault))
        }
        let late: Fault =
            weather.holdsRequests
            ? .holdRequest(milliseconds: weather.delayMilliseconds) : .delay(milliseconds: weather.delayMilliseconds)
        for route in lookups { add(route, weather.lookupDelay, late) }
        for route in commits {
            add(route, weather.commitDelay, late)
            add(route, weather.lostAnswer, .dropBeforeResponse)
        }
        add(nil, weather.serverError / 2, .status(503))
        add(nil, weather.serverError / 2, .status(500))
        add(nil, weather.rateLimit, .status(429, retryAfter: 0))
    }
}
