import Hummingbird
import Synchronization

/// The fault rules of one mock server, and how the mock answers a fault in its provider's own
/// words.
///
/// Tests add rules in-process; anyone else adds them over HTTP through the control routes
/// (see ``FaultControlRoutes``). ``FaultInjectionMiddleware`` asks the injector, for every
/// request, whether a fault applies.
///
/// ```swift
/// dropbox.faults.add(FaultRule(route: "/2/files/upload", fault: .status(503)))
/// ```
///
/// A mock of a new protocol makes its own injector, saying how its provider answers an error
/// status (the middleware adds `Retry-After` when the answer has none):
/// ```swift
/// let faults = FaultInjector(hooks: .init(errorResponse: { status, _ in
///     Response.json(["error": "injected"], status: .init(code: status))
/// }))
/// ```
public final class FaultInjector: Sendable {
    /// How a mock turns a fault into its provider's wire shapes.
    public struct ProviderHooks: Sendable {
        /// The provider's answer for an error status, given the `Retry-After` seconds if any.
        public var errorResponse: @Sendable (_ status: Int, _ retryAfter: Int?) -> Response
        /// Expires every access token the mock issued.
        public var expireTokens: @Sendable () -> Void
        /// Whether a bearer token is a valid access token of the mock, which the control routes
        /// accept besides the ``FaultInjector/controlToken``.
        public var isValidAccessToken: @Sendable (String) -> Bool

        /// Creates hooks.
        ///
        /// A mock of a protocol without access tokens gives only `errorResponse`: an
        /// ``Fault/expireTokens`` fault then just answers normally, and the control routes take
        /// only the ``FaultInjector/controlToken``.
        /// - Parameters:
        ///   - errorResponse: The provider's answer for an error status.
        ///   - expireTokens: Expires every issued access token; nothing by default.
        ///   - isValidAccessToken: Whether a token is a valid access token; none is by default.
        public init(
            errorResponse: @escaping @Sendable (_ status: Int, _ retryAfter: Int?) -> Response,
            expireTokens: @escaping @Sendable () -> Void = {},
            isValidAccessToken: @escaping @Sendable (String) -> Bool = { _ in false }
        ) {
            self.errorResponse = errorResponse
            self.expireTokens = expireTokens
            self.isValidAccessToken = isValidAccessToken
        }
    }

    /// A rule as the injector holds it, with what it has done so far.
    public struct ActiveRule: Sendable, Hashable, Codable {
        /// The rule's id, for removing it.
        public var id: String
        /// The rule.
        public var rule: FaultRule
        /// How many requests matched its route and method, counted as they arrive, also after
        /// the rule retired.
        public var matched: Int
        /// How many of them got the fault.
        public var injected: Int
    }

    private struct Entry {
        var active: ActiveRule
        var generator: SeededGenerator

        /// Counts a match and decides whether it is injected.
        mutating func take() -> Bool {
            let rule = active.rule
            active.matched += 1
            if rule.times > 0, active.injected >= rule.times { return false }
            guard active.matched >= rule.nth else { return false }
            if let probability = rule.probability, generator.nextUnitInterval() >= probability { return false }
            active.injected += 1
            return true
        }
    }

    private struct State {
        var entries: [Entry] = []
        var nextID = 1
    }

    /// The provider's shapes.
    public let hooks: ProviderHooks
    /// The bearer token the control routes (``FaultControlRoutes``) ask for: fresh random text,
    /// printed in `stratus-mock`'s start banner as `control token:`.
    public let controlToken: String
    private let state = Mutex(State())

    /// Creates an injector with no rules and a fresh control token.
    /// - Parameter hooks: How the mock answers faults in its provider's words.
    public init(hooks: ProviderHooks) {
        self.hooks = hooks
        self.controlToken = "stratus-control-" + RandomText.make(bytes: 24)
    }

    /// Adds a rule after the existing ones.
    /// - Parameter rule: The rule.
    /// - Returns: Its id.
    @discardableResult
    public func add(_ rule: FaultRule) -> String {
        state.withLock { state in
            let id = "fault-\(state.nextID)"
            state.nextID += 1
            state.entries.append(
                Entry(
                    active: ActiveRule(id: id, rule: rule, matched: 0, injected: 0),
                    generator: SeededGenerator(seed: rule.seed)
                ))
            return id
        }
    }

    /// Removes one rule.
    /// - Parameter id: The id ``add(_:)`` returned.
    /// - Returns: Whether a rule had that id.
    @discardableResult
    public func remove(id: String) -> Bool {
        state.withLock { state in
            let before = state.entries.count
            state.entries.removeAll { $0.active.id == id }
            return state.entries.count != before
        }
    }

    /// Removes every rule.
    public func removeAll() {
        state.withLock { $0.entries.removeAll() }
    }

    /// The rules in order, with their counts.
    public var rules: [ActiveRule] {
        state.withLock { $0.entries.map(\.active) }
    }

    /// How many faults were injected in all, by the rules still held.
    public var injectedCount: Int {
        state.withLock { $0.entries.reduce(0) { $0 + $1.active.injected } }
    }

    /// The fault for a request, if a rule injects one: every rule whose route, method and
    /// headers match counts the request, and the first that decides to inject wins.
    /// - Parameters:
    ///   - method: The request's method.
    ///   - path: The request's path.
    ///   - header: The request's value of a header field, by name.
    /// - Returns: The fault, or `nil` to answer normally.
    public func fault(method: String, path: String, header: (String) -> String? = { _ in nil }) -> Fault? {
        state.withLock { state in
            var chosen: Fault?
            for index in state.entries.indices
            where state.entries[index].active.rule.matches(method: method, path: path, header: header) {
                if state.entries[index].take(), chosen == nil {
                    chosen = state.entries[index].active.rule.fault
                }
            }
            return chosen
        }
    }
}

/// SplitMix64: a small, fast generator whose sequence is fixed by its seed, so a probabilistic
/// fault rule injects the same requests in every run.
struct SeededGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<1.
    mutating func nextUnitInterval() -> Double {
        Double(next() >> 11) / Double(1 << 53)
    }
}
