import Stratus
import StratusDigest

/// Where the sync layer keeps things on the service, below one folder (see <doc:RemoteFormat>):
///
/// ```
/// FOLDER/store.json                  the store marker: the store's id and format
/// FOLDER/records/TYPE/ID.json        one record document per record (the commit)
/// FOLDER/blobs/AB/ABCDEF….           file content, named by its SHA-256 (immutable)
/// ```
///
/// Names made only of lowercase ASCII letters, digits, `-` and `_` are used as they are; any
/// other name is written as `~` followed by the lowercase hex of its UTF-8 bytes, so that
/// providers that fold case or normalise Unicode cannot merge two names.
struct RemoteLayout: Sendable {
    let folder: RemotePath
    let records: RemotePath
    let blobs: RemotePath
    /// The store marker (``RemoteMarker``).
    let marker: RemotePath

    init(folder: RemotePath) throws {
        self.folder = folder
        marker = try folder.appending("store.json")
        records = try folder.appending("records")
        blobs = try folder.appending("blobs")
    }

    func documentPath(of key: RecordKey) throws -> RemotePath {
        try records.appending(Self.encode(key.type)).appending(Self.encode(key.id) + ".json")
    }

    func blobPath(of hash: String) throws -> RemotePath {
        try blobs.appending(String(hash.prefix(2))).appending(hash)
    }

    /// The record a path names, or `nil` for a path that is not a record document.
    func key(ofDocument path: RemotePath) -> RecordKey? {
        guard records.contains(path), path.components.count == records.components.count + 2 else { return nil }
        let typeName = path.components[records.components.count]
        let fileName = path.components[records.components.count + 1]
        guard fileName.hasSuffix(".json"), let type = Self.decode(typeName),
            let id = Self.decode(String(fileName.dropLast(5)))
        else { return nil }
        return try? RecordKey(type: type, id: id)
    }

    static func encode(_ name: String) -> String {
        let plain = name.utf8.allSatisfy { byte in
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x5F
        }
        if plain { return name }
        return "~" + Hex.encode(Array(name.utf8))
    }

    static func decode(_ encoded: String) -> String? {
        guard encoded.hasPrefix("~") else {
            return encode(encoded) == encoded && !encoded.isEmpty ? encoded : nil
        }
        guard encoded.count > 1, let bytes = Hex.decode(String(encoded.dropFirst())) else { return nil }
        guard let name = String(validating: bytes, as: UTF8.self), encode(name) == encoded else { return nil }
        return name
    }
}
