/// The provider's identifier of one version of a file's content: a Dropbox `rev`, a Drive
/// revision id, or the local backend's version number.
///
/// It is opaque: compare it for equality, store it, hand it back to the same service.
public struct VersionID: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The provider's text for the version.
    public let rawValue: String

    /// Wraps a provider's version text.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Wraps a provider's version text.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// The provider's version text, unchanged.
    public var description: String { rawValue }

    /// Decodes the version from a plain JSON string.
    public init(from decoder: any Decoder) throws {
        self.rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes the version as a plain string (its ``rawValue``), not an object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
