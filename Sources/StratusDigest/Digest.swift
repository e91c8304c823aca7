public import Foundation
public import Stratus

/// One-shot digests of bytes already in memory, and streaming digests of files.
public enum Digest {
    /// The SHA-256 digest of some bytes.
    /// - Parameter bytes: The content.
    /// - Returns: The 32 digest bytes.
    public static func sha256<Bytes: ContiguousBytes>(_ bytes: Bytes) -> [UInt8] {
        finish(SHA256Digest(), over: bytes)
    }

    /// The SHA-1 digest of some bytes.
    /// - Parameter bytes: The content.
    /// - Returns: The 20 digest bytes.
    public static func sha1<Bytes: ContiguousBytes>(_ bytes: Bytes) -> [UInt8] {
        finish(SHA1Digest(), over: bytes)
    }

    /// The MD5 digest of some bytes.
    /// - Parameter bytes: The content.
    /// - Returns: The 16 digest bytes.
    public static func md5<Bytes: ContiguousBytes>(_ bytes: Bytes) -> [UInt8] {
        finish(MD5Digest(), over: bytes)
    }

    /// The digest of some bytes under any computable algorithm.
    /// - Parameters:
    ///   - algorithm: The digest to compute.
    ///   - bytes: The content.
    /// - Returns: The raw digest.
    /// - Throws: ``DigestError`` when the algorithm is not one this module computes (see
    ///   ``Stratus/HashAlgorithm/computable``).
    public static func compute<Bytes: ContiguousBytes>(
        _ algorithm: HashAlgorithm,
        over bytes: Bytes
    ) throws(DigestError) -> [UInt8] {
        finish(try algorithm.makeDigest(), over: bytes)
    }

    /// Feeds all the bytes to a fresh digest and finishes it.
    private static func finish<Bytes: ContiguousBytes>(_ digest: any IncrementalDigest, over bytes: Bytes) -> [UInt8] {
        bytes.withUnsafeBytes { digest.update($0) }
        return digest.finalize()
    }
}
