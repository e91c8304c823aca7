import Foundation
import Stratus
import StratusHTTP

/// A file as the Depot protocol describes it: in JSON (uploads, listings, the change feed) or
/// in the header fields of `HEAD` and `GET`.
struct DepotFileDescription: Decodable, Sendable {
    var path: String
    var id: String
    var etag: String
    var size: Int64
    var sha256: String
    var modified: Int64

    /// Reads the header fields of a `HEAD` or `GET` answer.
    /// - Parameters:
    ///   - headers: The answer's header fields.
    ///   - path: The path the request named.
    /// - Throws: ``Stratus/ServiceError/Code/invalidResponse`` when a field is missing or bad.
    init(headers: StratusHTTPHeaders, path: RemotePath) throws {
        guard let etag = headers["ETag"].map(Self.unquoted), !etag.isEmpty,
            let id = headers["Depot-File-ID"],
            let size = headers["Depot-Size"].flatMap({ Int64($0) }),
            let sha256 = headers["Depot-Content-SHA256"],
            let modified = headers["Depot-Modified"].flatMap({ Int64($0) })
        else {
            throw ServiceError(
                .invalidResponse,
                "Depot described \(path) without a readable ETag, Depot-File-ID, Depot-Size, Depot-Content-SHA256 or Depot-Modified."
            )
        }
        self.init(path: path.string, id: id, etag: etag, size: size, sha256: sha256, modified: modified)
    }

    init(path: String, id: String, etag: String, size: Int64, sha256: String, modified: Int64) {
        self.path = path
        self.id = id
        self.etag = etag
        self.size = size
        self.sha256 = sha256
        self.modified = modified
    }

    /// The file as Stratus describes it.
    /// - Throws: ``Stratus/ServiceError/Code/invalidResponse`` when the path is not a valid
    ///   remote path, or the size or hash cannot be right.
    func remoteFile() throws -> RemoteFile {
        let remotePath: RemotePath
        do {
            remotePath = try RemotePath(path)
        } catch {
            throw ServiceError(
                .invalidResponse, "Depot described a file at an invalid path.", underlying: error as? ServiceError)
        }
        guard size >= 0, sha256.utf8.count == 64, sha256.allSatisfy(\.isHexDigit) else {
            throw ServiceError(
                .invalidResponse, "Depot described \(remotePath) with a negative size or a malformed SHA-256.")
        }
        return RemoteFile(
            path: remotePath,
            id: id,
            size: size,
            modified: Date(timeIntervalSince1970: Double(modified) / 1000),
            contentHash: ContentHash(algorithm: .sha256, value: sha256.lowercased()),
            version: VersionID(etag)
        )
    }

    /// An entity tag without its quotes.
    static func unquoted(_ value: String) -> String {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard trimmed.count >= 2, trimmed.hasPrefix("\""), trimmed.hasSuffix("\"") else { return trimmed }
        return String(trimmed.dropFirst().dropLast())
    }
}
