/// A position in a service's change feed.
///
/// Tokens are opaque, `Codable` and stable across process restarts: save one, and a later
/// process can ask for the changes since it. A token the provider no longer accepts makes
/// ``Service/changes(since:)`` throw ``ServiceError/Code/invalidChangeToken``; the caller then
/// resyncs from a full listing and a fresh ``Service/latestChangeToken()``.
public struct ChangeToken: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The adapter's encoding of the provider's cursor.
    public let rawValue: String

    /// Wraps an adapter's encoded cursor.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The encoded cursor, unchanged (a cursor, not a credential).
    public var description: String { rawValue }

    /// Decodes the token from a plain JSON string.
    public init(from decoder: any Decoder) throws {
        self.rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes the token as a plain string (its ``rawValue``), not an object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
