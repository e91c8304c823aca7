import Foundation
import HTTPTypes
import Hummingbird

/// The conditional headers of a write, checked against the target's current ETag the way
/// Sabre checks them (RFC 7232 and RFC 4918 10.4): `If-Match` (ETags or `*`), `If-None-Match`
/// (`*` or ETags) and the ETag conditions (`["etag"]`) of an `If` header. Lock tokens in an
/// `If` header are the locks' business, not this.
struct NextcloudPreconditions {
    var ifMatch: String?
    var ifNoneMatch: String?
    var ifHeader: String?

    init(_ request: Request) {
        ifMatch = request.headers[.ifMatch]
        ifNoneMatch = request.headers[.ifNoneMatch]
        ifHeader = request.headers[HTTPField.Name("If")!]
    }

    /// Refuses with 412 unless every condition holds for a target with `etag` (`nil`: absent).
    func check(currentETag etag: String?) throws {
        if let ifMatch {
            let wanted = Self.tags(ifMatch)
            guard let etag, wanted.contains("*") || wanted.contains(etag) else {
                throw Self.failed("An If-Match header was specified, but none of the specified ETags matched.")
            }
        }
        if let ifNoneMatch, let etag {
            let refused = Self.tags(ifNoneMatch)
            if refused.contains("*") || refused.contains(etag) {
                throw Self.failed("An If-None-Match header was specified, but the ETag matched (or * was specified).")
            }
        }
        if let ifHeader {
            let conditions = Self.etagConditions(ifHeader)
            if !conditions.isEmpty, !conditions.contains(where: { $0 == etag }) {
                throw Self.failed("An If-header was specified, but none of the specified conditions were met")
            }
        }
    }

    /// The ETags of an `If-Match` or `If-None-Match` value, quotes and `W/` removed (`*` kept).
    static func tags(_ value: String) -> [String] {
        value.split(separator: ",").map { item in
            var tag = item.trimmingCharacters(in: .whitespaces)
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            if tag.count >= 2, tag.hasPrefix("\""), tag.hasSuffix("\"") { tag = String(tag.dropFirst().dropLast()) }
            return tag
        }
    }

    /// The ETags named by `["etag"]` conditions of an `If` header (negated ones left out).
    static func etagConditions(_ value: String) -> [String] {
        var found: [String] = []
        var rest = Substring(value)
        while let open = rest.firstIndex(of: "[") {
            let before = rest[..<open].trimmingCharacters(in: .whitespaces)
            guard let close = rest[open...].firstIndex(of: "]") else { break }
            var tag = String(rest[rest.index(after: open)..<close])
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            if tag.count >= 2, tag.hasPrefix("\""), tag.hasSuffix("\"") { tag = String(tag.dropFirst().dropLast()) }
            if !before.lowercased().hasSuffix("not") { found.append(tag) }
            rest = rest[rest.index(after: close)...]
        }
        return found
    }

    static func failed(_ message: String) -> NextcloudFailure {
        NextcloudFailure(status: 412, exception: "Sabre\\DAV\\Exception\\PreconditionFailed", message: message)
    }
}
