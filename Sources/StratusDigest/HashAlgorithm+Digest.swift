public import Stratus

extension HashAlgorithm {
    /// Dropbox's content hash: SHA-256 over the SHA-256 digests of each 4 MiB block (see
    /// ``DropboxContentHash``).
    public static let dropboxContentHash = HashAlgorithm(rawValue: "dropboxContentHash")

    /// OneDrive's QuickXorHash: 160 bits, each byte XORed in 11 bits after the previous one, the
    /// length XORed into the last 8 bytes (see ``QuickXorHash``).
    public static let quickXorHash = HashAlgorithm(rawValue: "quickXorHash")

    /// The algorithms this module computes: SHA-256, SHA-1, MD5, Dropbox's content hash and
    /// OneDrive's QuickXorHash.
    public static let computable: [HashAlgorithm] = [.sha256, .sha1, .md5, .dropboxContentHash, .quickXorHash]

    /// Whether this module can compute the algorithm (see ``computable``).
    public var isComputable: Bool {
        Self.computable.contains(self)
    }

    /// Starts an empty incremental computation of this digest.
    /// - Returns: The digest, ready for its first piece.
    /// - Throws: ``DigestError`` with ``DigestError/unsupportedAlgorithm`` set when this module
    ///   does not know how to compute the algorithm (one an adapter named itself).
    public func makeDigest() throws(DigestError) -> any IncrementalDigest {
        switch self {
        case .sha256: SHA256Digest()
        case .sha1: SHA1Digest()
        case .md5: MD5Digest()
        case .dropboxContentHash: DropboxContentHash()
        case .quickXorHash: QuickXorHash()
        default: throw DigestError.unsupported(self)
        }
    }
}

/// The closed set of digests this module computed before the hash algorithm became an open
/// type in `Stratus`.
@available(*, deprecated, renamed: "HashAlgorithm")
public typealias DigestAlgorithm = HashAlgorithm
