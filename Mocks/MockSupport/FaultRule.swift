/// When a mock injects a ``Fault``: which requests match, and for how many of them.
///
/// A rule counts the requests that match its ``route``, ``method`` and ``headers``. From the ``nth`` match
/// on, each match is injected (or, with a ``probability``, each match is injected with that
/// chance, drawn from a generator seeded with ``seed`` so a run can be repeated) until the
/// fault was injected ``times`` times. On the wire (`POST /__stratus/faults`):
/// ```json
/// {"route": "/2/files/upload", "method": "POST", "nth": 2, "times": 1,
///  "fault": {"kind": "status", "status": 503}}
/// ```
/// A route alone cannot tell one Dropbox download from another (the file's path travels in the
/// `Dropbox-API-Arg` header), so a rule may also match header values:
/// ```json
/// {"route": "/2/files/download", "headers": {"Dropbox-API-Arg": "*\"/saves/slot-1.json\"*"},
///  "fault": {"kind": "status", "status": 503}}
/// ```
public struct FaultRule: Sendable, Hashable, Codable {
    /// The request path the rule matches, where `*` stands for any run of characters (so
    /// `/2/files/*` is a prefix and `/drive/v3/files/*/revisions` names every file's
    /// revisions); `*` alone (the default) matches every route. The mock's control routes
    /// (`/__stratus/...`) are never matched.
    public var route: String
    /// The method the rule matches (any case), or `nil` for any.
    public var method: String?
    /// Header fields the request must carry, by name (any case), each value matched like
    /// ``route`` (`*` for any run of characters); `nil` or empty for any request.
    public var headers: [String: String]?
    /// The first match to inject, counting from 1 (the default).
    public var nth: Int
    /// How many injections the rule makes before it retires; 0 means no limit. Default 1.
    public var times: Int
    /// The chance, 0...1, that a match from the ``nth`` on is injected; `nil` for always.
    public var probability: Double?
    /// The seed of the generator that draws against ``probability``.
    public var seed: UInt64
    /// What to inject.
    public var fault: Fault

    /// Creates a rule.
    /// - Parameters:
    ///   - route: The path to match, `*` standing for any run of characters.
    ///   - method: The method to match, or `nil` for any.
    ///   - headers: Header values to match, by name, `*` standing for any run of characters.
    ///   - nth: The first match to inject, from 1.
    ///   - times: How many injections; 0 for no limit.
    ///   - probability: The chance of injecting each match, or `nil` for always.
    ///   - seed: The seed for ``probability``'s draws.
    ///   - fault: What to inject.
    public init(
        route: String = "*",
        method: String? = nil,
        headers: [String: String]? = nil,
        nth: Int = 1,
        times: Int = 1,
        probability: Double? = nil,
        seed: UInt64 = 0,
        fault: Fault
    ) {
        self.route = route
        self.method = method
        self.headers = headers
        self.nth = nth
        self.times = times
        self.probability = probability
        self.seed = seed
        self.fault = fault
    }

    private enum CodingKeys: String, CodingKey {
        case route, method, headers, nth, times, probability, seed, fault
    }

    /// Reads a rule from its JSON form; every field but `fault` may be left out and takes the
    /// default of ``init(route:method:headers:nth:times:probability:seed:fault:)``.
    /// - Throws: `DecodingError` naming the field at fault: a missing or unknown fault, `nth`
    ///   below 1, a negative `times`, a `probability` outside 0...1.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        route = try container.decodeIfPresent(String.self, forKey: .route) ?? "*"
        method = try container.decodeIfPresent(String.self, forKey: .method)
        headers = try container.decodeIfPresent([String: String].self, forKey: .headers)
        nth = try container.decodeIfPresent(Int.self, forKey: .nth) ?? 1
        times = try container.decodeIfPresent(Int.self, forKey: .times) ?? 1
        probability = try container.decodeIfPresent(Double.self, forKey: .probability)
        seed = try container.decodeIfPresent(UInt64.self, forKey: .seed) ?? 0
        fault = try container.decode(Fault.self, forKey: .fault)
        guard nth >= 1 else {
            throw DecodingError.dataCorruptedError(forKey: .nth, in: container, debugDescription: "nth counts from 1")
        }
        guard times >= 0 else {
            throw DecodingError.dataCorruptedError(
                forKey: .times, in: container, debugDescription: "times must not be negative (0 means no limit)")
        }
        if let probability, !(0...1).contains(probability) {
            throw DecodingError.dataCorruptedError(
                forKey: .probability, in: container, debugDescription: "probability must be within 0...1")
        }
    }

    /// Whether the rule's route, method and headers match a request.
    /// - Parameters:
    ///   - requestMethod: The request's method, in any case.
    ///   - path: The request's path, without the query.
    ///   - header: The request's value of a header field, by name (any case); `nil` when it
    ///     has none. A rule that names headers matches no request without them.
    public func matches(
        method requestMethod: String, path: String, header: (String) -> String? = { _ in nil }
    ) -> Bool {
        if let method, method.uppercased() != requestMethod.uppercased() { return false }
        for (name, pattern) in headers ?? [:] {
            guard let value = header(name), Self.glob(Array(pattern.utf8), matches: Array(value.utf8)) else {
                return false
            }
        }
        return Self.glob(Array(route.utf8), matches: Array(path.utf8))
    }

    /// Whether a pattern whose `*` stands for any run of bytes matches a whole text, without
    /// backtracking: the part before the first `*` must start the text, the part after the last
    /// must end it, and each part between is taken at its first place after the one before
    /// (the earliest place never leaves less room for what follows). Each part is looked for
    /// once, so a rule with many stars costs no more than one with few.
    static func glob(_ pattern: [UInt8], matches text: [UInt8]) -> Bool {
        let parts = pattern.split(separator: UInt8(ascii: "*"), omittingEmptySubsequences: false)
        guard let head = parts.first, let tail = parts.last, parts.count > 1 else { return pattern == text }
        guard text.count >= head.count + tail.count, text.starts(with: head),
            text.suffix(tail.count).elementsEqual(tail)
        else {
            return false
        }
        var position = head.count
        let end = text.count - tail.count
        for part in parts.dropFirst().dropLast() where !part.isEmpty {
            guard let found = text[position..<end].firstRange(of: part) else { return false }
            position = found.upperBound
        }
        return true
    }
}
