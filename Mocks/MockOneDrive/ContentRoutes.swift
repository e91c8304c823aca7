import Foundation
import Hummingbird
import MockSupport

/// `/content` and the content host's downloads.
extension MockOneDriveServer {
    /// `GET /content` (or `/versions/{id}/content`): 302 to the pre-authenticated download URL.
    func contentRedirect(_ address: GraphAddress, versionID: String?) throws(GraphFailure) -> Response {
        let base = contentBaseText
        let location = try store.withState { (state: inout GraphState) throws(GraphFailure) -> String in
            let item = try existing(address, in: &state)
            guard !item.isFolder else { throw .invalidRequest("Folders have no content.") }
            let version: GraphVersion?
            if let versionID {
                version = item.versions.first { $0.id == versionID }
            } else {
                version = item.content
            }
            guard let version else { throw .itemNotFound("The version does not exist.") }
            return downloadURL(base: base, version: version)
        }
        return Response(status: .found, headers: [.location: location, .cacheControl: "no-cache"])
    }

    /// `GET /download/{blob}/{signature}` on the content host: the bytes, whole or a `Range`.
    func download(_ request: Request, blob: String, signature: String) throws(GraphFailure) -> Response {
        guard signature == self.signature(ofBlob: blob) else {
            throw GraphFailure(status: 401, code: "unauthenticated", message: "The download URL is not valid.")
        }
        let url = blobs.url(ofBlob: blob)
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
            let size = (attributes[.size] as? NSNumber)?.int64Value
        else { throw .itemNotFound("The content is gone.") }
        var headers: HTTPFields = [.contentType: "application/octet-stream", .acceptRanges: "bytes"]
        if let rangeHeader = request.headers[.range] {
            guard let range = ByteRangeHeader.range(rangeHeader, size: size) else {
                headers[.contentRange] = "bytes */\(size)"
                throw GraphFailure(
                    status: 416, code: "invalidRange", message: "The requested range is not satisfiable.",
                    headers: headers)
            }
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(size)"
            return Response(
                status: .partialContent, headers: headers, body: blobs.responseBody(ofBlob: blob, range: range))
        }
        return Response(status: .ok, headers: headers, body: blobs.responseBody(ofBlob: blob, range: 0..<size))
    }
}
