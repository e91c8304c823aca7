import Foundation

/// The error a ``KeyValueStore`` throws.
public struct KeyValueError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case invalidKey, quotaExceeded, typeMismatch, overflow, invalidData, sync
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The key is empty or longer than ``KeyValueLimits/maximumKeyLength`` UTF-8 bytes.
        public static let invalidKey = Code(.invalidKey)
        /// The write would go over a limit (total size or number of keys); nothing was written.
        public static let quotaExceeded = Code(.quotaExceeded)
        /// The key holds a value of another type than the call needs.
        public static let typeMismatch = Code(.typeMismatch)
        /// A counter would go past what 64 bits hold; nothing was written.
        public static let overflow = Code(.overflow)
        /// Stored data is not a valid key-value document.
        public static let invalidData = Code(.invalidData)
        /// The sync layer failed; ``KeyValueError/underlying`` holds its error.
        public static let sync = Code(.sync)

        public var description: String { base.rawValue }
    }

    /// The kind of failure.
    public var code: Code
    /// What went wrong.
    public var message: String
    /// The error underneath.
    public var underlying: (any Error & Sendable)?

    /// Creates an error.
    public init(_ code: Code, _ message: String, underlying: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    public var description: String {
        if let underlying { "\(code): \(message) (cause: \(underlying))" } else { "\(code): \(message)" }
    }
}

extension KeyValueError: LocalizedError {
    public var errorDescription: String? { description }
}
