public import Foundation

/// The error a ``KeyValueStore`` throws for what the store itself refuses or cannot read: a key or
/// value it does not take, a write over its limits, a counter used as a value, a number past 64
/// bits, or a store record it cannot read.
///
/// A failure of the sync layer underneath (the local database, the service, a record document
/// that is not of the sync format) is not wrapped: it reaches the app as the
/// ``/StratusSync/SyncError`` the sync store threw. Each throwing call says which of the two it
/// throws.
///
/// Like ``/StratusSync/SyncError``, the code is a struct over a private enumeration, so new codes
/// never break a caller's `switch`.
///
/// ```swift
/// do {
///     try progress.increment("coins", by: 5)
/// } catch let error as KeyValueError where error.code == .typeMismatch {
///     // "coins" holds a plain value; remove it first to make it a counter.
/// }
/// ```
public struct KeyValueError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case invalidKey, invalidValue, invalidDocument, unsupportedFormat, quotaExceeded, typeMismatch
            case overflow
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// A key is empty or longer than ``KeyValueLimits/maximumKeyLength``; nothing was written.
        public static let invalidKey = Code(.invalidKey)
        /// A value cannot be stored as JSON (a number that is not finite); nothing was written.
        public static let invalidValue = Code(.invalidValue)
        /// The store's record or an event record is not of the key-value format: damaged on this
        /// device, or written by something else.
        public static let invalidDocument = Code(.invalidDocument)
        /// The store's record was written in a later format of the key-value store than this
        /// version reads; update the app.
        public static let unsupportedFormat = Code(.unsupportedFormat)
        /// A write would take the store over one of its ``KeyValueLimits``; nothing was written.
        public static let quotaExceeded = Code(.quotaExceeded)
        /// The key holds a value of another kind than the call needs: a plain value where a
        /// counter is incremented.
        public static let typeMismatch = Code(.typeMismatch)
        /// A number would go past what 64 bits hold (a counter's tally, its generation, an event's
        /// sequence number); nothing was written.
        public static let overflow = Code(.overflow)

        /// The code's name, such as `quotaExceeded`.
        public var description: String { base.rawValue }
    }

    /// The kind of failure.
    public var code: Code
    /// What went wrong, in words a person can act on.
    public var message: String

    /// Creates an error.
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - message: What went wrong.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The code and message, such as `typeMismatch: The key "coins" holds a value, ...`.
    public var description: String { "\(code): \(message)" }
}

extension KeyValueError: LocalizedError {
    /// The same text as ``description``, for code that reads `localizedDescription`.
    public var errorDescription: String? { description }
}
