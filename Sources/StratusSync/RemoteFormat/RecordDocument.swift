import Foundation

/// The record document: one JSON file per record on the remote, written last, as the commit of
/// a record and its files. Its schema is in <doc:RemoteFormat>.
///
/// Fields this version does not know are kept in ``unknownFields`` and written back unchanged,
/// so an older app does not drop what a newer one added.
struct RecordDocument: Hashable, Sendable {
    /// The format version this library writes and reads.
    static let currentFormat: Int64 = 1
    /// The largest record document accepted from a remote: 16 MiB.
    static let maximumSize = 16 * 1_048_576

    var key: RecordKey
    /// A new random id for every local edit: the same edit id means the same write, which is
    /// how a device recognises its own commit after a crash.
    var edit: String
    /// The device that made the edit.
    var device: String
    /// When the edit was made, by the editing device's clock.
    var modified: Date
    /// A deleted record is a document with no value (a tombstone), so the delete has a version
    /// like any edit and can be undone.
    var isDeleted: Bool
    var value: JSONValue
    var files: [String: FileEntry]
    var unknownFields: [String: JSONValue] = [:]

    /// One file of a record: the blob that holds it.
    struct FileEntry: Hashable, Sendable, Codable {
        var sha256: String
        var size: Int64
    }

    /// A new edit id.
    static func newEdit() -> String {
        UUID().uuidString.lowercased()
    }

    private static let knownFields: Set<String> = [
        "format", "type", "id", "edit", "device", "modified", "deleted", "value", "files",
    ]

    /// The document's bytes: sorted keys, so equal documents are equal bytes.
    func encoded() throws -> Data {
        var object = unknownFields
        object["format"] = .integer(Self.currentFormat)
        object["type"] = .string(key.type)
        object["id"] = .string(key.id)
        object["edit"] = .string(edit)
        object["device"] = .string(device)
        object["modified"] = .string(Timestamp.string(from: modified))
        object["deleted"] = .bool(isDeleted)
        if !isDeleted { object["value"] = value }
        var fileObject: [String: JSONValue] = [:]
        for (name, entry) in files {
            fileObject[name] = .object(["sha256": .string(entry.sha256), "size": .integer(entry.size)])
        }
        object["files"] = .object(fileObject)
        return try JSONCoding.encoder.encode(JSONValue.object(object))
    }

    /// Reads a document, checking everything the format promises.
    /// - Parameter expectedKey: The record the document's path names; a document that names
    ///   another record is refused.
    /// - Throws: ``SyncError`` (`invalidDocument` or `unsupportedFormat`).
    static func decode(_ data: Data, expectedKey: RecordKey?) throws -> RecordDocument {
        guard data.count <= maximumSize else {
            throw SyncError(
                .invalidDocument, "The record document is \(data.count) bytes; at most \(maximumSize) are accepted.")
        }
        let root: JSONValue
        do {
            root = try JSONValue.read(data)
        } catch {
            throw SyncError(
                .invalidDocument, "The record document is not valid JSON (\(data.count) bytes): \(error.description).")
        }
        guard case .object(let object) = root else {
            throw SyncError(.invalidDocument, "The record document is not a JSON object.")
        }
        guard case .integer(let format)? = object["format"] else {
            throw SyncError(.invalidDocument, "The record document has no integer \"format\".")
        }
        guard format == currentFormat else {
            if format > currentFormat {
                throw SyncError(
                    .unsupportedFormat,
                    "The record document has format \(format); this library reads format \(currentFormat). Update the app to read it."
                )
            }
            throw SyncError(.invalidDocument, "The record document has format \(format), which does not exist.")
        }
        func string(_ name: String) throws -> String {
            guard case .string(let text)? = object[name] else {
                throw SyncError(.invalidDocument, "The record document has no string \"\(name)\".")
            }
            return text
        }
        let key: RecordKey
        do {
            key = try RecordKey(type: string("type"), id: string("id"))
        } catch let error as SyncError where error.code == .invalidKey {
            throw SyncError(.invalidDocument, "The record document names an invalid record: \(error.message)")
        }
        if let expectedKey, key != expectedKey {
            throw SyncError(.invalidDocument, "The record document at the path of \(expectedKey) says it is \(key).")
        }
        let edit = try string("edit")
        let device = try string("device")
        guard let modified = Timestamp.date(from: try string("modified")) else {
            throw SyncError(.invalidDocument, "The record document's \"modified\" is not an ISO 8601 date.")
        }
        guard case .bool(let isDeleted)? = object["deleted"] else {
            throw SyncError(.invalidDocument, "The record document has no boolean \"deleted\".")
        }
        let value = object["value"] ?? .null
        if !isDeleted, object["value"] == nil {
            throw SyncError(.invalidDocument, "The record document has no \"value\".")
        }
        guard case .object(let fileObject)? = object["files"] else {
            throw SyncError(.invalidDocument, "The record document has no \"files\" object.")
        }
        var files: [String: FileEntry] = [:]
        for (name, entry) in fileObject {
            guard FileName.isValid(name) else {
                throw SyncError(
                    .invalidDocument,
                    "The record document names a file \(name.debugDescription), which is not a valid file name.")
            }
            guard case .object(let fields) = entry, case .string(let hash)? = fields["sha256"],
                case .integer(let size)? = fields["size"], size >= 0, BlobHash.isValid(hash)
            else {
                throw SyncError(
                    .invalidDocument,
                    "The record document's file \(name.debugDescription) needs a 64-digit lowercase \"sha256\" and a \"size\" of at least 0."
                )
            }
            files[name] = FileEntry(sha256: hash, size: size)
        }
        return RecordDocument(
            key: key,
            edit: edit,
            device: device,
            modified: modified,
            isDeleted: isDeleted,
            value: isDeleted ? .null : value,
            files: isDeleted ? [:] : files,
            unknownFields: object.filter { !knownFields.contains($0.key) }
        )
    }
}

/// The names of a record's files: non-empty, at most 200 UTF-8 bytes, no control characters.
enum FileName {
    static func isValid(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 200 && !name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }
}

/// A blob's name: the lowercase hex SHA-256 of its content.
enum BlobHash {
    static func isValid(_ hash: String) -> Bool {
        hash.utf8.count == 64 && hash.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
