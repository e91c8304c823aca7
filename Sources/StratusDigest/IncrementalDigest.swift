public import Foundation
public import Stratus

/// A digest computed over bytes that arrive in pieces, so a file is hashed while it streams
/// instead of in a second pass.
///
/// A digest object is mutable and not thread-safe: one transfer owns it at a time.
public protocol IncrementalDigest: AnyObject {
    /// The algorithm this digest computes.
    var algorithm: HashAlgorithm { get }

    /// Feeds the next piece of the content.
    /// - Parameter bytes: The bytes, in order after all earlier pieces.
    func update(_ bytes: UnsafeRawBufferPointer)

    /// Finishes the computation and returns the raw digest bytes.
    ///
    /// After `finalize()` the object is spent: further calls to ``update(_:)`` are ignored and
    /// `finalize()` returns the same bytes again.
    func finalize() -> [UInt8]
}

extension IncrementalDigest {
    /// Feeds the next piece of the content.
    /// - Parameter bytes: Any contiguous byte collection.
    public func update<Bytes: ContiguousBytes>(_ bytes: Bytes) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Finishes the computation and returns the digest as lowercase hexadecimal.
    public func finalizeHex() -> String {
        Hex.encode(finalize())
    }
}
