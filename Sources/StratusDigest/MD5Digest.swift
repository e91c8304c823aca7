public import Stratus

/// An MD5 digest (16 bytes) computed incrementally by OpenSSL.
///
/// MD5 is broken for collision resistance: use it only where a protocol requires it, such as a
/// `Content-MD5` header.
public final class MD5Digest: IncrementalDigest {
    /// The OpenSSL digest doing the work.
    private let engine = EVPDigest(openSSLName: "MD5")

    /// Starts an empty MD5 computation.
    public init() {}

    /// Always ``/Stratus/HashAlgorithm/md5``.
    public var algorithm: HashAlgorithm { .md5 }

    /// Feeds the next piece of the content; ignored after ``finalize()``.
    /// - Parameter bytes: The bytes, in order after all earlier pieces.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        engine.update(bytes)
    }

    /// Finishes the computation and returns the 16 digest bytes; later calls return the same bytes.
    public func finalize() -> [UInt8] {
        engine.finalize()
    }
}
