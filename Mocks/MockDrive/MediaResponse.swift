import Foundation
import HTTPTypes
import Hummingbird
import MockSupport

/// `alt=media` answers: the bytes of a blob, whole (200) or a `Range` of them (206).
extension MockDriveServer {
    func media(_ blob: BlobInfo, contentType: String, request: Request) throws(DriveFailure) -> Response {
        var headers: HTTPFields = [.contentType: contentType, .acceptRanges: "bytes"]
        if let name = HTTPField.Name("X-Goog-Hash") {
            headers[name] = "md5=\(Self.base64(hex: blob.md5))"
        }
        var range: Range<Int64> = 0..<blob.size
        var status: HTTPResponse.Status = .ok
        if let header = request.headers[.range] {
            guard let requested = ByteRangeHeader.range(header, size: blob.size) else {
                var body = DriveErrorBody(
                    code: 416, reason: "requestedRangeNotSatisfiable", message: "Request range not satisfiable")
                body.headers = [NamedValue("Content-Range", "bytes */\(blob.size)")]
                throw DriveFailure(body)
            }
            range = requested
            status = .partialContent
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(blob.size)"
        }
        if range.isEmpty {
            return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer()))
        }
        return Response(status: status, headers: headers, body: blobs.responseBody(ofBlob: blob.sha256, range: range))
    }

    /// Base64 of the bytes a hex string spells.
    static func base64(hex: String) -> String {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex),
            let byte = UInt8(hex[index..<next], radix: 16)
        {
            bytes.append(byte)
            index = next
        }
        return Data(bytes).base64EncodedString()
    }
}
