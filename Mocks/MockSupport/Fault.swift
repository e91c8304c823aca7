/// What a mock does instead of (or on top of) answering normally, when a ``FaultRule`` matches.
///
/// On the wire (the `/__stratus/faults` control route) a fault is a JSON object whose `kind`
/// names the case, with the case's values beside it:
/// ```json
/// {"kind": "status", "status": 429, "retryAfter": 2}
/// {"kind": "delay", "milliseconds": 1500}
/// {"kind": "holdRequest", "milliseconds": 250}
/// {"kind": "bandwidth", "bytesPerSecond": 65536}
/// {"kind": "dropBeforeResponse"}
/// {"kind": "dropAfterResponseBytes", "bytes": 1000}
/// {"kind": "dropAfterRequestBytes", "bytes": 1000}
/// {"kind": "corruptBody"}
/// {"kind": "expireTokens"}
/// ```
public enum Fault: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Answers with this status and the provider's own error body for it (such as Dropbox's
    /// `too_many_requests` for 429 or Drive's `userRateLimitExceeded` for 403), the request
    /// never reaching the route. `retryAfter` (seconds) adds a `Retry-After` header and, where
    /// the provider has one, the body's own field.
    case status(Int, retryAfter: Int? = nil)
    /// Handles the request normally, then holds the answer back this long: the work is done
    /// but the client hears nothing (a stall past a client's timeout, when the answer comes
    /// too late).
    case delay(milliseconds: Int)
    /// Holds the request back this long before the route sees it, then handles it normally:
    /// the server acts on it late (a write that arrives after a later look-up, a look-up that
    /// reads the state of after a later write).
    case holdRequest(milliseconds: Int)
    /// Handles the request normally but sends the response body no faster than this.
    case bandwidth(bytesPerSecond: Int)
    /// Closes the connection without answering (the route still handles the request, as a
    /// server whose answer is lost on the way would).
    case dropBeforeResponse
    /// Sends the response head and this many bytes of the body, then closes the connection.
    case dropAfterResponseBytes(Int)
    /// Reads this many bytes of the request body, then closes the connection without
    /// answering; the route never sees the request.
    case dropAfterRequestBytes(Int)
    /// Sends the response body with bytes flipped, same length and same headers.
    case corruptBody
    /// Expires every access token the mock issued, then handles the request normally (so
    /// this request and later ones meet an expired token until the client refreshes).
    case expireTokens

    private enum CodingKeys: String, CodingKey {
        case kind, status, retryAfter, milliseconds, bytesPerSecond, bytes
    }

    /// The names of the kinds, as the `kind` field spells them.
    public static let kindNames = [
        "status", "delay", "holdRequest", "bandwidth", "dropBeforeResponse", "dropAfterResponseBytes",
        "dropAfterRequestBytes", "corruptBody", "expireTokens",
    ]

    /// Reads a fault from its JSON form (see the type's documentation).
    /// - Throws: `DecodingError` naming the field at fault: an unknown `kind`, a missing value,
    ///   a negative count, a status outside 100...599 or a zero byte rate.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try container.decode(String.self, forKey: .kind)
        func positive(_ key: CodingKeys) throws -> Int {
            let value = try container.decode(Int.self, forKey: key)
            guard value >= 0 else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "\(key.rawValue) must not be negative")
            }
            return value
        }
        switch kind {
        case "status":
            let status = try container.decode(Int.self, forKey: .status)
            guard (100...599).contains(status) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .status, in: container, debugDescription: "status must be 100...599")
            }
            let retryAfter = try container.decodeIfPresent(Int.self, forKey: .retryAfter)
            if let retryAfter, retryAfter < 0 {
                throw DecodingError.dataCorruptedError(
                    forKey: .retryAfter, in: container, debugDescription: "retryAfter must not be negative")
            }
            self = .status(status, retryAfter: retryAfter)
        case "delay": self = .delay(milliseconds: try positive(.milliseconds))
        case "holdRequest": self = .holdRequest(milliseconds: try positive(.milliseconds))
        case "bandwidth":
            let rate = try positive(.bytesPerSecond)
            guard rate > 0 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .bytesPerSecond, in: container, debugDescription: "bytesPerSecond must be positive")
            }
            self = .bandwidth(bytesPerSecond: rate)
        case "dropBeforeResponse": self = .dropBeforeResponse
        case "dropAfterResponseBytes": self = .dropAfterResponseBytes(try positive(.bytes))
        case "dropAfterRequestBytes": self = .dropAfterRequestBytes(try positive(.bytes))
        case "corruptBody": self = .corruptBody
        case "expireTokens": self = .expireTokens
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: container,
                debugDescription: "unknown kind '\(kind)'; expected one of \(Self.kindNames.joined(separator: ", "))"
            )
        }
    }

    /// Writes the fault in its JSON form, `kind` beside the case's values.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .status(let status, let retryAfter):
            try container.encode("status", forKey: .kind)
            try container.encode(status, forKey: .status)
            try container.encodeIfPresent(retryAfter, forKey: .retryAfter)
        case .delay(let milliseconds):
            try container.encode("delay", forKey: .kind)
            try container.encode(milliseconds, forKey: .milliseconds)
        case .holdRequest(let milliseconds):
            try container.encode("holdRequest", forKey: .kind)
            try container.encode(milliseconds, forKey: .milliseconds)
        case .bandwidth(let rate):
            try container.encode("bandwidth", forKey: .kind)
            try container.encode(rate, forKey: .bytesPerSecond)
        case .dropBeforeResponse:
            try container.encode("dropBeforeResponse", forKey: .kind)
        case .dropAfterResponseBytes(let bytes):
            try container.encode("dropAfterResponseBytes", forKey: .kind)
            try container.encode(bytes, forKey: .bytes)
        case .dropAfterRequestBytes(let bytes):
            try container.encode("dropAfterRequestBytes", forKey: .kind)
            try container.encode(bytes, forKey: .bytes)
        case .corruptBody:
            try container.encode("corruptBody", forKey: .kind)
        case .expireTokens:
            try container.encode("expireTokens", forKey: .kind)
        }
    }

    /// A short description, such as `status 503` or `drop after 1000 response bytes`.
    public var description: String {
        switch self {
        case .status(let status, let retryAfter):
            "status \(status)" + (retryAfter.map { " (retry after \($0) s)" } ?? "")
        case .delay(let milliseconds): "delay \(milliseconds) ms"
        case .holdRequest(let milliseconds): "hold request \(milliseconds) ms"
        case .bandwidth(let rate): "bandwidth \(rate) B/s"
        case .dropBeforeResponse: "drop before response"
        case .dropAfterResponseBytes(let bytes): "drop after \(bytes) response bytes"
        case .dropAfterRequestBytes(let bytes): "drop after \(bytes) request bytes"
        case .corruptBody: "corrupt body"
        case .expireTokens: "expire tokens"
        }
    }
}
