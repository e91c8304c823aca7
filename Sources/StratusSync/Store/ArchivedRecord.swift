public import Foundation

/// A side of a record kept in a store's archive (``SyncStore/archivedRecords()``): a local side
/// replaced in a conflict or by a restore, or a record removed through a way out.
public struct ArchivedRecord: Sendable {
    /// The side as it was, with its files.
    public var record: SyncRecord
    /// When it went to the archive.
    public var archived: Date
    /// Why, in words (a conflict settled for the other side, a document removed from the
    /// remote, the remote adopted, ...).
    public var reason: String

    /// The record it is a side of.
    public var key: RecordKey { record.key }

    /// Creates an archived side (for tests and for apps that forward them).
    public init(record: SyncRecord, archived: Date, reason: String) {
        self.record = record
        self.archived = archived
        self.reason = reason
    }
}
