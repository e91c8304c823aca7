import Foundation
import HTTPTypes
import Hummingbird
import MockSupport

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
            guard let requested = ByteRangeHeader.range(header, size: size) else {
                headers[.contentRange] = "bytes */\(size)"
                return Response(status: .rangeNotSatisfiable, headers: headers)
            }
            range = requested
            status = .partialContent
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(size)"
        }
        return Response(
            status: status, headers: headers, body: blobs.responseBody(ofBlob: revision.blob.sha256, range: range))
    }
}
