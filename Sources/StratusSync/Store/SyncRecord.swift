public import Foundation
public import Stratus

/// A record as the store holds it: its value, when it was last edited, and its files.
public struct SyncRecord: Hashable, Sendable {
    /// The record's type and id.
    public var key: RecordKey
    /// The app's value, as JSON.
    public var value: JSONValue
    /// When the record was last edited, by the editing device's clock.
    public var modified: Date
    /// The device that made the last edit (a ``SyncConfiguration/deviceName``).
    public var device: String
    /// Whether this side of a conflict is a delete; ``SyncStore/record(_:)`` never returns a
    /// deleted record.
    public var isDeleted: Bool
    /// The record's files by name.
    public var files: [String: SyncFile]

    /// Decodes the value as the app's type.
    /// - Throws: ``SyncError`` (`invalidValue`) when the JSON does not fit the type.
    public func decode<Value: Decodable>(_ type: Value.Type = Value.self) throws -> Value {
        try value.decode(type)
    }
}

/// One file of a record, kept by the store as immutable content named by its hash.
public struct SyncFile: Hashable, Sendable {
    /// The lowercase hex SHA-256 of the content.
    public var sha256: String
    /// The size in bytes.
    public var size: Int64
    /// Where the content is on this device. The file is shared by every record and version
    /// holding the same content: read it or copy it, never change it.
    public var url: URL
}

/// One version of a record in the service's history, newest first in
/// ``SyncStore/versions(of:)``.
public struct RecordVersion: Hashable, Sendable {
    /// The service's version of the record document; pass it to ``SyncStore/restore(_:to:)``.
    public var id: VersionID
    /// When the service stored that version.
    public var stored: Date
    /// The record as it was in that version, files included (their content is fetched on
    /// ``SyncStore/restore(_:to:)``, so ``SyncFile/url`` may not exist yet).
    public var record: SyncRecord
}

/// A record changed on two sides that the store did not merge on its own: the app decides with
/// ``SyncStore/resolve(_:with:)``. Until then the local side is kept and not pushed, and the
/// remote side stays in the service's history.
public struct SyncConflict: Hashable, Sendable {
    /// The record.
    public var key: RecordKey
    /// This device's side.
    public var local: SyncRecord
    /// The other side, as the remote holds it now (its files are on this device).
    public var remote: SyncRecord
    /// The last version both sides agreed on, when there was one.
    public var base: SyncRecord?
}

/// How the app settles a conflict.
public enum ConflictResolution: Sendable {
    /// Keep this device's side; it is pushed over the remote one, which stays in history.
    case keepLocal
    /// Take the remote side; this device's side is archived (``SyncStore/archived(_:)``).
    case keepRemote
    /// Write a new value (and files: a name → local file map, `nil` to keep the local side's
    /// files); it is pushed over the remote side.
    case merged(JSONValue, files: [String: URL]?)
}
