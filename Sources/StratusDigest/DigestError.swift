public import Stratus

/// A failure reported by the digest module: a file that could not be read, a request that
/// libcrypto turned down, or a hash algorithm the module does not compute.
public struct DigestError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, in a sentence.
    public var message: String

    /// The file involved, when the failure concerns one.
    public var path: String?

    /// The POSIX `errno` value the operating system reported, when there is one.
    public var errorNumber: Int32?

    /// The underlying cause in words: the operating system's text for ``errorNumber``, or
    /// OpenSSL's error string.
    public var detail: String?

    /// The hash algorithm asked for, when the failure is that this module cannot compute it.
    public var unsupportedAlgorithm: HashAlgorithm?

    /// Creates an error.
    /// - Parameters:
    ///   - message: What went wrong, in a sentence.
    ///   - path: The file involved, if any.
    ///   - errorNumber: The POSIX `errno` value, if any.
    ///   - detail: The underlying cause in words, if known.
    ///   - unsupportedAlgorithm: The algorithm this module cannot compute, if that is the failure.
    public init(
        message: String,
        path: String? = nil,
        errorNumber: Int32? = nil,
        detail: String? = nil,
        unsupportedAlgorithm: HashAlgorithm? = nil
    ) {
        self.message = message
        self.path = path
        self.errorNumber = errorNumber
        self.detail = detail
        self.unsupportedAlgorithm = unsupportedAlgorithm
    }

    /// The error for a hash algorithm this module does not compute.
    /// - Parameter algorithm: The algorithm asked for.
    /// - Returns: An error naming it and the algorithms that are computable.
    public static func unsupported(_ algorithm: HashAlgorithm) -> DigestError {
        let known = HashAlgorithm.computable.map(\.rawValue).joined(separator: ", ")
        return DigestError(
            message: "StratusDigest cannot compute the hash algorithm '\(algorithm.rawValue)' (it computes \(known))",
            unsupportedAlgorithm: algorithm
        )
    }

    /// The message followed by the path, the `errno` value and the underlying detail, where known.
    public var description: String {
        var text = message
        if let path {
            text += " (path: \(path))"
        }
        if let errorNumber {
            text += " [errno \(errorNumber)]"
        }
        if let detail {
            text += ": \(detail)"
        }
        return text
    }
}
