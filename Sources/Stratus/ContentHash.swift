/// A content hash as a provider reports it: the algorithm and its lowercase hex value.
///
/// Dropbox reports its own content hash (`HashAlgorithm.dropboxContentHash`, declared in
/// `StratusDigest`), Drive ``HashAlgorithm/md5``, the local backend and S3
/// ``HashAlgorithm/sha256``.
public struct ContentHash: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The algorithm that produced ``value``.
    public var algorithm: HashAlgorithm
    /// The digest in lowercase hexadecimal.
    public var value: String

    /// Creates a content hash.
    /// - Parameters:
    ///   - algorithm: The algorithm that produced the value.
    ///   - value: The digest in hexadecimal; it is stored lowercased.
    public init(algorithm: HashAlgorithm, value: String) {
        self.algorithm = algorithm
        self.value = value.lowercased()
    }

    /// The hash as `algorithm:hex`, such as `sha256:e3b0…`.
    public var description: String { "\(algorithm.rawValue):\(value)" }
}
