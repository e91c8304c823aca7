public import Stratus

/// A SHA-1 digest (20 bytes) computed incrementally by OpenSSL.
///
/// SHA-1 is broken for collision resistance: use it only where a protocol requires it.
public final class SHA1Digest: IncrementalDigest {
    /// The OpenSSL digest doing the work.
    private let engine = EVPDigest(openSSLName: "SHA1")

    /// Starts an empty SHA-1 computation.
    public init() {}

    /// Always ``/Stratus/HashAlgorithm/sha1``.
    public var algorithm: HashAlgorithm { .sha1 }

    /// Feeds the next piece of the content; ignored after ``finalize()``.
    /// - Parameter bytes: The bytes, in order after all earlier pieces.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        engine.update(bytes)
    }

    /// Finishes the computation and returns the 20 digest bytes; later calls return the same bytes.
    public func finalize() -> [UInt8] {
        engine.finalize()
    }
}
