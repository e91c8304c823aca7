import Foundation
import Hummingbird
import MockSupport

extension MockDepotServer {
    /// `PUT /files/{path}`: receives the whole body into the blob store, checks its SHA-256,
    /// then checks the precondition and stores the file in one step.
    func put(_ request: Request) async throws -> Response {
        let path = try filePath(of: request)
        guard let expected = request.headers[DepotHeader.contentSHA256]?.lowercased(),
            expected.utf8.count == 64, expected.allSatisfy(\.isHexDigit)
        else {
            throw DepotFailure.badRequest("Depot-Content-SHA256 must be the 64 hex digits of the body's SHA-256.")
        }
        let precondition = try Self.precondition(of: request)
        if let announced = request.headers[.contentLength].flatMap({ Int64($0) }), announced > maximumUploadSize {
            throw Self.tooLarge(maximumUploadSize)
        }
        guard let blob = try await blobs.ingest(request.body, limit: maximumUploadSize) else {
            throw Self.tooLarge(maximumUploadSize)
        }
        guard blob.sha256 == expected else {
            throw DepotFailure.badRequest(
                "The body's SHA-256 is \(blob.sha256), not \(expected) as Depot-Content-SHA256 says; nothing was stored.",
                code: "digest_mismatch"
            )
        }
        let (file, created) = try store.write(path, sha256: blob.sha256, size: blob.size, precondition: precondition)
        var headers = HTTPFields()
        headers[.eTag] = "\"\(file.etag)\""
        return Response.json(file.json, status: created ? .created : .ok, headers: headers)
    }

    /// `HEAD /files/{path}`: the file's headers.
    func head(_ request: Request) throws -> Response {
        let path = try filePath(of: request)
        guard let file = store.file(at: path) else { throw DepotFailure.notFound(path) }
        return Response(status: .ok, headers: file.headers)
    }

    /// `GET /files/{path}`: the content, or with `Range: bytes=<from>-` the rest of it; with
    /// `If-Match`, only while the file is at that version.
    func get(_ request: Request) throws -> Response {
        let path = try filePath(of: request)
        guard let file = store.file(at: path) else { throw DepotFailure.notFound(path) }
        if let wanted = request.headers[.ifMatch], Self.etag(wanted) != file.etag {
            throw DepotFailure.preconditionFailed("\(path.text) is at etag \(file.etag) now.")
        }
        var headers = file.headers
        guard let rangeHeader = request.headers[.range] else {
            return Response(
                status: .ok, headers: headers, body: blobs.responseBody(ofBlob: file.sha256, range: 0..<file.size))
        }
        guard let range = ByteRangeHeader.range(rangeHeader, size: file.size) else {
            headers[.contentRange] = "bytes */\(file.size)"
            let failure = DepotFailure(
                status: .rangeNotSatisfiable, code: "range_not_satisfiable",
                message: "\(rangeHeader) does not fit \(file.size) bytes.", headers: headers
            )
            return failure.response
        }
        headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(file.size)"
        return Response(
            status: .partialContent, headers: headers, body: blobs.responseBody(ofBlob: file.sha256, range: range))
    }

    /// `DELETE /files/{path}`, with `If-Match` only at that version.
    func delete(_ request: Request) throws -> Response {
        let path = try filePath(of: request)
        try store.delete(path, etag: request.headers[.ifMatch].map(Self.etag))
        return Response(status: .noContent)
    }

    /// The file path after `/files/`.
    private func filePath(of request: Request) throws(DepotFailure) -> DepotPath {
        let path = try DepotPath(encoded: request.uri.path.dropFirst("/files/".count))
        guard path != .root else { throw .badRequest("The path names no file.") }
        return path
    }

    /// The precondition of `If-None-Match: *` or `If-Match: "<etag>"`.
    private static func precondition(of request: Request) throws(DepotFailure) -> DepotStore.Precondition {
        switch (request.headers[.ifNoneMatch], request.headers[.ifMatch]) {
        case (nil, nil): return .none
        case ("*"?, nil): return .mustNotExist
        case (nil, let etag?): return .mustMatch(Self.etag(etag))
        default: throw .badRequest("Send If-None-Match: * or If-Match: \"<etag>\", not both and nothing else.")
        }
    }

    /// An entity tag without its quotes.
    private static func etag(_ value: String) -> String {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard trimmed.count >= 2, trimmed.hasPrefix("\""), trimmed.hasSuffix("\"") else { return trimmed }
        return String(trimmed.dropFirst().dropLast())
    }

    private static func tooLarge(_ limit: Int64) -> DepotFailure {
        DepotFailure(status: .contentTooLarge, code: "too_large", message: "A file may have at most \(limit) bytes.")
    }
}
