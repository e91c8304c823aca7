import Foundation
import Stratus
import StratusAdapterKit

/// One resource of a PROPFIND answer, with the properties the adapter reads.
struct WebDAVEntry: Sendable, Equatable {
    /// The `href` as sent, percent-decoded to a path (no scheme or host).
    var href: String
    var isCollection: Bool
    var size: Int64?
    var modified: Date?
    /// The ETag without quotes and without the weak marker `W/` (Apache marks a file weak
    /// within a second of its change, and strong later: the same version either way).
    var etag: String?
    /// The adapter's own state property (hash, version token, the ETag it was written for).
    var state: WebDAVState?
    /// The custom metadata property, as JSON text.
    var metadata: String?
    /// The hashes of the versions the adapter wrote (Nextcloud).
    var history: String?
    /// Nextcloud's and ownCloud's `oc:fileid`.
    var fileID: String?
    /// Nextcloud's and ownCloud's `oc:checksums`: the checksums a client sent with the content
    /// (`OC-Checksum`), such as `SHA1:… MD5:…`.
    var checksums: String?

    /// Reads a multistatus answer.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidResponse`` when it is not one.
    static func parse(_ body: Data, action: String) throws -> [WebDAVEntry] {
        let document: XMLTree
        do {
            document = try XMLTree.parse(body)
        } catch {
            throw WebDAVErrorMapping.undecodable(action, error.reason)
        }
        guard document.name == "multistatus" else {
            throw WebDAVErrorMapping.undecodable(action, "the answer is <\(document.name)>, not a multistatus")
        }
        return try document.children("response").map { response in
            guard let rawHref = response.value("href")?.trimmingCharacters(in: .whitespacesAndNewlines),
                !rawHref.isEmpty
            else {
                throw WebDAVErrorMapping.undecodable(action, "a response without an href")
            }
            var entry = WebDAVEntry(href: hrefPath(rawHref), isCollection: false)
            for propstat in response.children("propstat") {
                guard let status = propstat.value("status").flatMap(statusCode), (200..<300).contains(status),
                    let properties = propstat.child("prop")
                else { continue }
                for property in properties.children {
                    let text = property.text.trimmingCharacters(in: .whitespacesAndNewlines)
                    switch property.name {
                    case "resourcetype": entry.isCollection = property.child("collection") != nil
                    case "getcontentlength": entry.size = Int64(text)
                    case "getlastmodified": entry.modified = HTTPDate.parse(text)
                    case "getetag": entry.etag = text.isEmpty ? nil : normalizedETag(text)
                    case WebDAVProperties.stateName: entry.state = WebDAVState(text)
                    case WebDAVProperties.metadataName: entry.metadata = property.text
                    case WebDAVProperties.historyName: entry.history = text
                    case "fileid": entry.fileID = text.isEmpty ? nil : text
                    case "checksums":
                        let listed = property.children("checksum").map(\.text).joined(separator: " ")
                        let checksums = (listed.isEmpty ? property.text : listed)
                            .trimmingCharacters(in: .whitespacesAndNewlines)
                        entry.checksums = checksums.isEmpty ? nil : checksums
                    default: break
                    }
                }
            }
            return entry
        }
    }

    /// `/dav/a%20b.txt` for `/dav/a%20b.txt` or `http://host/dav/a%20b.txt`, percent-decoded.
    static func hrefPath(_ href: String) -> String {
        var path = href
        if let scheme = path.range(of: "://") {
            let afterHost = path[scheme.upperBound...].firstIndex(of: "/") ?? path.endIndex
            path = String(path[afterHost...])
        }
        return path.removingPercentEncoding ?? path
    }

    /// `200` for `HTTP/1.1 200 OK`.
    static func statusCode(_ line: String) -> Int? {
        let parts = line.split(separator: " ")
        guard parts.count >= 2 else { return nil }
        return Int(parts[1])
    }

    /// An ETag without quotes or the weak marker.
    static func normalizedETag(_ text: String) -> String {
        var tag = Substring(text.trimmingCharacters(in: .whitespaces))
        if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
        if tag.hasPrefix("\""), tag.hasSuffix("\""), tag.count >= 2 { tag = tag.dropFirst().dropLast() }
        return String(tag)
    }
}

/// What the adapter records in its state property after each write: the SHA-256 of the
/// content, a version token of its own, and the ETag the content had when it was recorded.
///
/// The record is trusted only while the file's ETag is still the recorded one: a write by
/// another program leaves it behind, and the file then has no hash and its ETag as version.
struct WebDAVState: Sendable, Equatable {
    var sha256: String
    var token: String
    var etag: String

    init(sha256: String, token: String, etag: String) {
        self.sha256 = sha256
        self.token = token
        self.etag = etag
    }

    /// Reads `v1 <sha256> <token> <etag>`.
    init?(_ text: String) {
        let parts = text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ", maxSplits: 3)
        guard parts.count == 4, parts[0] == "v1", parts[1].count == 64, !parts[2].isEmpty else { return nil }
        sha256 = String(parts[1])
        token = String(parts[2])
        etag = String(parts[3])
    }

    var text: String { "v1 \(sha256) \(token) \(etag)" }
}
