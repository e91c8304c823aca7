import Foundation
import HTTPTypes
import Hummingbird

/// A file as the mock keeps it: where it is, which blob holds its content, and its version.
struct DepotFile: Sendable {
    var path: DepotPath
    /// Stable while the path holds a file.
    var id: String
    /// The version of the content, new on every write.
    var etag: String
    /// Lowercase hex SHA-256; also the blob's name in the store.
    var sha256: String
    var size: Int64
    /// Milliseconds since 1970.
    var modified: Int64

    /// The JSON form of the protocol.
    var json: JSON {
        JSON(path: path.text, id: id, etag: etag, size: size, sha256: sha256, modified: modified)
    }

    /// The header fields `HEAD` and `GET` describe the file with.
    var headers: HTTPFields {
        var fields = HTTPFields()
        fields[.eTag] = "\"\(etag)\""
        fields[DepotHeader.fileID] = id
        fields[DepotHeader.size] = String(size)
        fields[DepotHeader.contentSHA256] = sha256
        fields[DepotHeader.modified] = String(modified)
        return fields
    }

    /// A file in the protocol's JSON.
    struct JSON: Codable, Sendable {
        var path: String
        var id: String
        var etag: String
        var size: Int64
        var sha256: String
        var modified: Int64
    }
}

/// The protocol's own header fields.
enum DepotHeader {
    static let fileID = HTTPField.Name("Depot-File-ID")!
    static let size = HTTPField.Name("Depot-Size")!
    static let contentSHA256 = HTTPField.Name("Depot-Content-SHA256")!
    static let modified = HTTPField.Name("Depot-Modified")!
}
