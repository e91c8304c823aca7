public import Foundation
public import Stratus

/// The error the sync layer throws and reports per record.
///
/// Like ``/Stratus/ServiceError``, the code is a struct over a private enumeration, so new codes
/// never break a caller's `switch`. A failure of the service underneath keeps its
/// ``/Stratus/ServiceError`` in ``underlying`` and its code in ``serviceCode``.
public struct SyncError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case invalidValue, invalidKey, localFile, database, service, invalidDocument
            case unsupportedFormat, missingBlob, blobMismatch, unresolvedConflict, notFound
            case unsupported, quarantined, cancelled, remoteReplaced, massDeletion
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// A value could not be encoded to JSON, or stored JSON does not decode as the type asked.
        public static let invalidValue = Code(.invalidValue)
        /// A record type or id breaks the naming rules (empty, too long, a control character).
        public static let invalidKey = Code(.invalidKey)
        /// A local file could not be read, copied or written.
        public static let localFile = Code(.localFile)
        /// The local SQLite state could not be read or written.
        public static let database = Code(.database)
        /// The service failed; ``SyncError/underlying`` holds its ``/Stratus/ServiceError``.
        public static let service = Code(.service)
        /// A remote record document is not valid JSON of the documented format.
        public static let invalidDocument = Code(.invalidDocument)
        /// A remote record document has a format version newer than this library reads.
        public static let unsupportedFormat = Code(.unsupportedFormat)
        /// A record names a blob the remote does not have.
        public static let missingBlob = Code(.missingBlob)
        /// A blob's content does not match the hash it is named by.
        public static let blobMismatch = Code(.blobMismatch)
        /// The record has a conflict that waits for the app to resolve it.
        public static let unresolvedConflict = Code(.unresolvedConflict)
        /// No such record, version or conflict.
        public static let notFound = Code(.notFound)
        /// The service does not offer what the call needs (version history).
        public static let unsupported = Code(.unsupported)
        /// The record's remote document is quarantined: it was invalid, and this device does not
        /// push over it until a valid version arrives.
        public static let quarantined = Code(.quarantined)
        /// The sync was cancelled.
        public static let cancelled = Code(.cancelled)
        /// The remote folder is not the one this device synced with: its store marker is gone
        /// (the folder was deleted or emptied) or names another store (the service points at
        /// another account or folder). Nothing was changed; the app chooses
        /// ``SyncStore/reseedRemote()`` or ``SyncStore/adoptRemote()``.
        public static let remoteReplaced = Code(.remoteReplaced)
        /// A pull would remove more of this device's records than
        /// ``SyncConfiguration/massDeletionLimit`` allows, because their documents vanished from
        /// the remote (no tombstone). Nothing was applied; ``SyncError/recordCount`` says how
        /// many. ``SyncStore/acceptRemoteDeletions()`` lets the next sync apply them.
        public static let massDeletion = Code(.massDeletion)

        /// The code's name, such as `remoteReplaced`.
        public var description: String { base.rawValue }
    }

    /// The kind of failure.
    public var code: Code
    /// What went wrong, in words a person can act on.
    public var message: String
    /// The error underneath, such as a ``/Stratus/ServiceError``.
    public var underlying: (any Error & Sendable)?
    /// How many records the error concerns, where it concerns a number of them: for
    /// ``Code/massDeletion``, the records whose documents vanished.
    public var recordCount: Int?

    /// Creates an error.
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - message: What went wrong.
    ///   - underlying: The error underneath.
    ///   - recordCount: How many records the error concerns, if it concerns a number of them.
    public init(_ code: Code, _ message: String, underlying: (any Error & Sendable)? = nil, recordCount: Int? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
        self.recordCount = recordCount
    }

    /// The code of the service error underneath, when the failure came from the service.
    public var serviceCode: ServiceError.Code? {
        (underlying as? ServiceError)?.code
    }

    /// The code and message, followed by the underlying error's description when there is one.
    public var description: String {
        if let underlying { "\(code): \(message) (cause: \(underlying))" } else { "\(code): \(message)" }
    }

    /// Wraps any error from the layers below: a ``SyncError`` passes through, a
    /// ``/Stratus/ServiceError`` becomes `service` (or `cancelled`), anything else `localFile`
    /// or `database` as the caller says.
    static func wrapping(_ error: any Error, _ context: String, otherwise code: Code = .localFile) -> SyncError {
        if let error = error as? SyncError { return error }
        if let error = error as? ServiceError {
            if error.code == .cancelled { return SyncError(.cancelled, "\(context): cancelled.", underlying: error) }
            return SyncError(.service, "\(context): \(error.message)", underlying: error)
        }
        if error is CancellationError { return SyncError(.cancelled, "\(context): cancelled.") }
        return SyncError(code, "\(context): \(error)", underlying: SendableDescription(error))
    }
}

extension SyncError: LocalizedError {
    /// The same text as ``description``, for code that reads `localizedDescription`.
    public var errorDescription: String? { description }
}

/// An error from a non-Sendable source, kept as its text.
struct SendableDescription: Error, Sendable, CustomStringConvertible {
    let description: String
    init(_ error: any Error) { description = String(describing: error) }
}
