/// A content digest a storage service uses to check a transfer.
public enum DigestAlgorithm: String, Sendable, Hashable, Codable, CaseIterable {
    /// SHA-256 (FIPS 180-4).
    case sha256
    /// SHA-1 (FIPS 180-4); only where a protocol requires it.
    case sha1
    /// MD5 (RFC 1321); only where a protocol requires it.
    case md5
    /// Dropbox's content hash: SHA-256 over the SHA-256 digests of each 4 MiB block.
    case dropboxContentHash

    /// Starts an empty incremental computation of this digest.
    public func makeDigest() -> any IncrementalDigest {
        switch self {
        case .sha256: SHA256Digest()
        case .sha1: SHA1Digest()
        case .md5: MD5Digest()
        case .dropboxContentHash: DropboxContentHash()
        }
    }

    /// The length of the raw digest in bytes.
    public var byteCount: Int {
        switch self {
        case .sha256: 32
        case .sha1: 20
        case .md5: 16
        case .dropboxContentHash: 32
        }
    }
}
