import Foundation

/// The store marker: `FOLDER/store.json`, written by the first sync of a remote folder, so a
/// device can tell that the folder it syncs with is still the one it synced with before (see
/// <doc:RemoteFormat>). A folder that was deleted, or a service that now points at another
/// account or folder, has no marker or another store id.
struct RemoteMarker: Hashable, Sendable {
    /// The remote format version this library writes.
    static let currentFormat: Int64 = RecordDocument.currentFormat
    /// The largest marker accepted from a remote: 64 KiB.
    static let maximumSize = 65_536

    /// The store's random id, made by the device that wrote the marker.
    var store: String
    /// The remote format version the folder is written in.
    var format: Int64
    /// The oldest format version a library may have and still write to the folder.
    var minimumWriterFormat: Int64
    /// When the marker was written, by the writing device's clock.
    var created: Date
    /// Fields a newer library added; kept when this library writes the marker again.
    var unknownFields: [String: JSONValue] = [:]

    private static let knownFields: Set<String> = ["store", "format", "minimumWriterFormat", "created"]

    /// A marker for a new store, with a random id.
    static func new() -> RemoteMarker {
        RemoteMarker(
            store: UUID().uuidString.lowercased(), format: currentFormat, minimumWriterFormat: currentFormat,
            created: Date())
    }

    /// The marker's bytes: compact JSON with sorted keys.
    func encoded() throws -> Data {
        var object = unknownFields
        object["store"] = .string(store)
        object["format"] = .integer(format)
        object["minimumWriterFormat"] = .integer(minimumWriterFormat)
        object["created"] = .string(Timestamp.string(from: created))
        return try JSONCoding.encoder.encode(JSONValue.object(object))
    }

    /// Reads a marker, checking everything the format promises.
    /// - Parameter path: The marker's path, for messages.
    /// - Throws: ``SyncError``: `unsupportedFormat` for a folder written by a newer format (or
    ///   one that older writers may not write to), `invalidDocument` for anything else wrong.
    static func decode(_ data: Data, path: String) throws -> RemoteMarker {
        guard data.count <= maximumSize else {
            throw SyncError(
                .invalidDocument,
                "The store marker \(path) is \(data.count) bytes; at most \(maximumSize) are accepted."
            )
        }
        let root: JSONValue
        do {
            root = try JSONValue.read(data)
        } catch {
            throw SyncError(.invalidDocument, "The store marker \(path) is not valid JSON (\(data.count) bytes).")
        }
        guard case .object(let object) = root else {
            throw SyncError(.invalidDocument, "The store marker \(path) is not a JSON object.")
        }
        guard case .integer(let format)? = object["format"], format >= 1 else {
            throw SyncError(.invalidDocument, "The store marker \(path) has no integer \"format\" of at least 1.")
        }
        let minimumWriter: Int64
        if case .integer(let value)? = object["minimumWriterFormat"], value >= 1 {
            minimumWriter = value
        } else if format <= currentFormat {
            throw SyncError(
                .invalidDocument, "The store marker \(path) has no integer \"minimumWriterFormat\" of at least 1.")
        } else {
            minimumWriter = format
        }
        guard format <= currentFormat, minimumWriter <= currentFormat else {
            throw SyncError(
                .unsupportedFormat,
                "The remote folder was written by a newer version of the app (store format \(format), writers from format \(minimumWriter)); this library reads and writes format \(currentFormat). Update the app to sync with it. Nothing was written."
            )
        }
        guard case .string(let store)? = object["store"], !store.isEmpty, store.utf8.count <= 200,
            !store.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else {
            throw SyncError(
                .invalidDocument,
                "The store marker \(path) has no \"store\" id of 1 to 200 bytes without control characters.")
        }
        guard case .string(let createdText)? = object["created"], let created = Timestamp.date(from: createdText) else {
            throw SyncError(.invalidDocument, "The store marker \(path) has no ISO 8601 date \"created\".")
        }
        return RemoteMarker(
            store: store, format: format, minimumWriterFormat: minimumWriter, created: created,
            unknownFields: object.filter { !knownFields.contains($0.key) })
    }
}
