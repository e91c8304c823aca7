import Foundation
import Hummingbird
import HTTPTypes

/// `files/download`: metadata in `Dropbox-API-Result`, bytes streamed from the blob store,
/// with `Range` support (206).
extension MockDropboxServer {
    func download(_ request: inout Request) async throws -> Response {
        try authorize(request, scope: "files.content.read")
        let arguments = try headerArguments(request, route: "files/download")
        let raw = try arguments.string("path")
        let found = try lookup(raw, arguments: arguments, errorTag: "path")
        guard found.node.kind == .file, let revision = found.revision ?? found.node.current else {
            throw DropboxFailure.route(FilesError.wrap("path", LookupProblem.notFile.union))
        }
        var headers: HTTPFields = [:]
        if let name = HTTPField.Name("Dropbox-API-Result") {
            headers[name] = DropboxJSON.asciiText(found.node.metadata(of: revision))
        }
        headers[.contentType] = "application/octet-stream"
        headers[.eTag] = "W/\"\(revision.rev)\""
        headers[.acceptRanges] = "bytes"
        let size = revision.blob.size
        var status: HTTPResponse.Status = .ok
        var range: Range<Int64> = 0..<size
        if let header = request.headers[.range] {
            guard let requested = Self.byteRange(header, size: size) else {
                headers[.contentRange] = "bytes */\(size)"
                return Response(status: .rangeNotSatisfiable, headers: headers)
            }
            range = requested
            status = .partialContent
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(size)"
        }
        return Response(status: status, headers: headers, body: blobs.responseBody(ofBlob: revision.blob.sha256, range: range))
    }

    /// The byte range of a `Range: bytes=a-b`, `bytes=a-` or `bytes=-n` header, or `nil`
    /// when it cannot be satisfied.
    static func byteRange(_ header: String, size: Int64) -> Range<Int64>? {
        guard header.hasPrefix("bytes="), !header.contains(",") else { return nil }
        let spec = header.dropFirst(6).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard spec.count == 2 else { return nil }
        let first = spec[0].trimmingCharacters(in: .whitespaces)
        let last = spec[1].trimmingCharacters(in: .whitespaces)
        if first.isEmpty {
            guard let suffix = Int64(last), suffix > 0, size > 0 else { return nil }
            return max(0, size - suffix)..<size
        }
        guard let start = Int64(first), start >= 0, start < size else { return nil }
        if last.isEmpty { return start..<size }
        guard let end = Int64(last), end >= start else { return nil }
        return start..<min(end + 1, size)
    }
}
