/// The name of a content hash algorithm: what a provider computes over a file's bytes to
/// report, and check, its content.
///
/// The set is open. The common algorithms have constants here; an adapter names its own with
/// ``init(rawValue:)`` (Dropbox's content hash is declared where it is computed, in
/// `StratusDigest`, as `HashAlgorithm.dropboxContentHash`; OneDrive's QuickXorHash could be
/// `HashAlgorithm(rawValue: "quickXorHash")`). Naming an algorithm does not make it
/// computable: the `StratusDigest` module computes the ones it knows and reports any other
/// with a typed error.
///
/// Two algorithms are the same when their names are equal, compared exactly. The name is
/// what ``ContentHash`` encodes, so keep it stable once data has been stored.
public struct HashAlgorithm: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The algorithm's name, such as `"sha256"`.
    public let rawValue: String

    /// Names an algorithm.
    /// - Parameter rawValue: The name, such as `"sha256"`; compared exactly.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// SHA-256 (FIPS 180-4).
    public static let sha256 = HashAlgorithm(rawValue: "sha256")
    /// SHA-1 (FIPS 180-4); only where a protocol requires it.
    public static let sha1 = HashAlgorithm(rawValue: "sha1")
    /// MD5 (RFC 1321); only where a protocol requires it.
    public static let md5 = HashAlgorithm(rawValue: "md5")

    /// Reads the name as a single string, as ``ContentHash`` has always stored it.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Writes the name as a single string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The name.
    public var description: String { rawValue }
}
