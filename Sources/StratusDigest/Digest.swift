import Foundation

/// One-shot digests of bytes already in memory, and streaming digests of files.
public enum Digest {
    /// The SHA-256 digest of some bytes.
    /// - Parameter bytes: The content.
    /// - Returns: The 32 digest bytes.
    public static func sha256<Bytes: ContiguousBytes>(_ bytes: Bytes) -> [UInt8] {
        compute(.sha256, over: bytes)
    }

    /// The SHA-1 digest of some bytes.
    /// - Parameter bytes: The content.
    /// - Returns: The 20 digest bytes.
    public static func sha1<Bytes: ContiguousBytes>(_ bytes: Bytes) -> [UInt8] {
        compute(.sha1, over: bytes)
    }

    /// The MD5 digest of some bytes.
    /// - Parameter bytes: The content.
    /// - Returns: The 16 digest bytes.
    public static func md5<Bytes: ContiguousBytes>(_ bytes: Bytes) -> [UInt8] {
        compute(.md5, over: bytes)
    }

    /// The digest of some bytes under any supported algorithm.
    /// - Parameters:
    ///   - algorithm: The digest to compute.
    ///   - bytes: The content.
    /// - Returns: The raw digest, ``DigestAlgorithm/byteCount`` bytes long.
    public static func compute<Bytes: ContiguousBytes>(_ algorithm: DigestAlgorithm, over bytes: Bytes) -> [UInt8] {
        let digest = algorithm.makeDigest()
        bytes.withUnsafeBytes { digest.update($0) }
        return digest.finalize()
    }
}
