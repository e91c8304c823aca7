public import Foundation

/// Several record writes that ``SyncStore/write(_:)`` applies together, all or none.
public struct SyncBatch: Sendable {
    struct Operation: Sendable {
        var key: RecordKey
        /// `nil` deletes the record.
        var value: JSONValue?
        var files: [String: URL]?
    }

    private(set) var operations: [Operation] = []

    /// Creates an empty batch.
    public init() {}

    /// Whether the batch holds no writes.
    public var isEmpty: Bool { operations.isEmpty }

    /// Adds a record write (see ``SyncStore/save(_:as:files:)``).
    /// - Throws: ``SyncError`` (`invalidValue`) when the value cannot be written as JSON.
    public mutating func save<Value: Encodable>(_ value: Value, as key: RecordKey, files: [String: URL]? = nil) throws {
        operations.append(Operation(key: key, value: try JSONValue(encoding: value), files: files))
    }

    /// Adds a delete (see ``SyncStore/delete(_:)``).
    public mutating func delete(_ key: RecordKey) {
        operations.append(Operation(key: key, value: nil, files: nil))
    }
}
