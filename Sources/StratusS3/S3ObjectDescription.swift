import Foundation
import Stratus
import StratusAdapterKit
import StratusDigest
import StratusHTTP

/// What S3 says about one object version in `HEAD`/`GET` answer headers.
struct S3ObjectDescription: Sendable {
    /// The custom metadata header prefix.
    static let metadataPrefix = "x-amz-meta-"
    /// The metadata name (after `x-amz-meta-`) under which the adapter keeps the SHA-256 of the
    /// whole content; names starting `stratus-` are reserved.
    static let sha256Name = "stratus-sha256"
    /// The metadata name of the writer's clock at the write, in microseconds since 1970: the
    /// change feed's tie-breaker between versions S3 stamps with the same second.
    static let writtenName = "stratus-written"
    static let reservedNamePrefix = "stratus-"

    var size: Int64
    var etag: String
    var versionID: String?
    var modified: Date
    var sha256: String?
    /// The writer's clock at the write (microseconds), for objects the adapter wrote.
    var written: Int64?
    var metadata: [String: String]

    /// Reads the headers of a `HEAD` or `GET` answer.
    /// - Parameter sizeFromRange: For a `206` answer, the total size from `Content-Range`.
    init(headers: StratusHTTPHeaders, action: String) throws {
        var size: Int64?
        if let range = headers["Content-Range"], let slash = range.lastIndex(of: "/") {
            size = Int64(range[range.index(after: slash)...].trimmingCharacters(in: .whitespaces))
        } else if let length = headers["Content-Length"] {
            size = Int64(length.trimmingCharacters(in: .whitespaces))
        }
        guard let size, size >= 0 else {
            throw S3ErrorMapping.undecodable(action, "the answer has no Content-Length (or a negative one)")
        }
        guard let etag = headers["ETag"] else { throw S3ErrorMapping.undecodable(action, "the answer has no ETag") }
        guard let modifiedText = headers["Last-Modified"], let modified = HTTPDate.parse(modifiedText) else {
            throw S3ErrorMapping.undecodable(action, "the answer has no readable Last-Modified")
        }
        self.size = size
        self.etag = S3ObjectDescription.unquoted(etag)
        self.versionID = headers["x-amz-version-id"]
        self.modified = modified
        var sha256: String?
        var written: Int64?
        var metadata: [String: String] = [:]
        for field in headers {
            let name = field.name.lowercased()
            guard name.hasPrefix(S3ObjectDescription.metadataPrefix) else { continue }
            let key = String(name.dropFirst(S3ObjectDescription.metadataPrefix.count))
            if key == S3ObjectDescription.sha256Name {
                sha256 = field.value.lowercased()
            } else if key == S3ObjectDescription.writtenName {
                written = Int64(field.value.trimmingCharacters(in: .whitespaces))
            } else if !key.hasPrefix(S3ObjectDescription.reservedNamePrefix) {
                metadata[key] = S3MetadataCoding.decode(field.value)
            }
        }
        self.sha256 = sha256
        self.written = written
        self.metadata = metadata
    }

    /// An ETag without its quotes.
    static func unquoted(_ etag: String) -> String {
        var text = etag.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("W/") { text.removeFirst(2) }
        if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { text = String(text.dropFirst().dropLast()) }
        return text
    }

    /// Whether an ETag is the MD5 of the content (a single `PutObject` without KMS), not a
    /// multipart ETag (`<md5 of md5s>-<parts>`).
    static func isContentMD5(_ etag: String) -> Bool {
        etag.utf8.count == 32 && Hex.decode(etag) != nil
    }
}

/// Encodes custom metadata for `x-amz-meta-*` headers, which carry ASCII only: `%`, control
/// characters and every byte outside ASCII are percent-encoded, so plain values stay readable
/// to other S3 tools.
enum S3MetadataCoding {
    /// Whether a name can be a metadata name: S3 lower-cases header names, so only lower-case
    /// letters, digits, `-` and `_` survive a round trip.
    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy {
                (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "-")
                    || $0 == UInt8(ascii: "_")
            }
    }

    static func encode(_ value: String) -> String {
        PercentEncoding.encode(value) { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "%") }
    }

    static func decode(_ value: String) -> String {
        value.removingPercentEncoding ?? value
    }
}

/// The ISO 8601 dates of S3's XML answers (`Last-Modified` headers are ``HTTPDate``s).
enum S3Dates {
    /// Parses an ISO 8601 date such as `2026-11-22T06:28:09.123Z`, with or without fractions
    /// (the kit's RFC 3339 reader, so a long listing makes no formatter per entry).
    static func isoDate(_ text: String) -> Date? {
        RFC3339Time.parse(text)
    }
}

extension S3ObjectDescription {
    /// The `x-amz-meta-stratus-written` value for a write made now.
    static func writtenStamp() -> String {
        String(Int64((Date().timeIntervalSince1970 * 1_000_000).rounded()))
    }
}
