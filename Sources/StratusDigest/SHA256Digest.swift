public import Stratus

/// A SHA-256 digest (32 bytes) computed incrementally by OpenSSL.
public final class SHA256Digest: IncrementalDigest {
    /// The OpenSSL digest doing the work.
    private let engine = EVPDigest(openSSLName: "SHA256")

    /// Starts an empty SHA-256 computation.
    public init() {}

    /// Always ``/Stratus/HashAlgorithm/sha256``.
    public var algorithm: HashAlgorithm { .sha256 }

    /// Feeds the next piece of the content; ignored after ``finalize()``.
    /// - Parameter bytes: The bytes, in order after all earlier pieces.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        engine.update(bytes)
    }

    /// Finishes the computation and returns the 32 digest bytes; later calls return the same bytes.
    public func finalize() -> [UInt8] {
        engine.finalize()
    }
}
