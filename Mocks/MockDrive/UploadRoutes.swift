import Foundation
import HTTPTypes
import Hummingbird
import MockSupport
import StratusDigest

/// `POST /upload/drive/v3/files` (create) and `PATCH /upload/drive/v3/files/{fileId}` (update)
/// with `uploadType` `media`, `multipart` or `resumable`, and the `PUT` requests of resumable
/// sessions.
extension MockDriveServer {
    /// The size of the pieces every chunk but the last of a resumable upload is made of.
    static let resumableChunkGranularity: Int64 = 256 * 1024

    func upload(_ request: inout Request, fileID: String?) async throws -> Response {
        let query = DriveQueryParameters(request)
        if let fileID {
            // Fail early, before reading content, when the file does not exist.
            _ = try store.withState { state throws(DriveFailure) in try state.node(fileID) }
        }
        switch query["uploadType"] {
        case "media":
            return try await mediaUpload(&request, fileID: fileID, query: query)
        case "multipart":
            return try await multipartUpload(&request, fileID: fileID, query: query)
        case "resumable":
            if query["upload_id"] != nil { return try await resumableChunk(&request) }
            return try await startResumable(&request, fileID: fileID, query: query)
        case nil:
            throw DriveFailure(
                DriveErrorBody(
                    code: 400, reason: "badRequest",
                    message: "Upload requests must specify an uploadType url parameter and a supported value."))
        case let other?:
            throw DriveFailure(
                .invalidParameter(
                    "uploadType",
                    message: "Invalid upload type '\(other)'. Valid values are media, multipart and resumable."))
        }
    }

    /// Commits uploaded bytes as a create or an update and answers with the file.
    func commit(
        fileID: String?, metadata: FileMetadata, blob: BlobInfo, sha1: String? = nil, contentType: String?,
        query: DriveQueryParameters
    ) throws -> Response {
        let resource = try commitResource(
            fileID: fileID, metadata: metadata, blob: blob, sha1: sha1, contentType: contentType, query: query)
        return try answer(resource, query: query, schema: .file, defaultFields: DefaultFields.file)
    }

    /// Commits uploaded bytes as a create or an update.
    /// - Returns: The file's full resource.
    /// - Parameter sha1: The content's SHA-1 when it is known; read from the blob otherwise.
    func commitResource(
        fileID: String?, metadata: FileMetadata, blob: BlobInfo, sha1: String? = nil, contentType: String?,
        query: DriveQueryParameters
    ) throws -> [String: Any] {
        let content = try sha1.map { StoredContent(blob: blob, sha1: $0) } ?? stored(blob)
        if let fileID {
            return try commitUpdate(
                id: fileID, metadata: metadata, content: content, contentType: contentType, query: query)
        }
        return try commitCreate(metadata: metadata, content: content, contentType: contentType, query: query)
    }

    /// A blob with its SHA-1, which the blob store does not keep, read from disk.
    func stored(_ blob: BlobInfo) throws -> StoredContent {
        guard blob.size > 0 else { return .empty }
        let hashes = try Digest.hash(fileAt: blobs.url(ofBlob: blob.sha256), algorithms: [.sha1])
        return StoredContent(blob: blob, sha1: hashes[.sha1] ?? "")
    }

    private func tooLarge() -> DriveFailure {
        DriveFailure(
            DriveErrorBody(
                code: 413, reason: "uploadTooLarge",
                message: "The upload is larger than this server accepts (\(options.maxUploadBytes) bytes)."))
    }

    private func mediaUpload(_ request: inout Request, fileID: String?, query: DriveQueryParameters) async throws
        -> Response
    {
        if let announced = request.headers[.contentLength].flatMap({ Int64($0) }), announced > options.maxUploadBytes {
            throw tooLarge()
        }
        guard let blob = try await blobs.ingest(request.body, limit: options.maxUploadBytes) else { throw tooLarge() }
        let contentType = request.headers[.contentType] ?? "application/octet-stream"
        return try commit(fileID: fileID, metadata: FileMetadata(), blob: blob, contentType: contentType, query: query)
    }

    private func multipartUpload(_ request: inout Request, fileID: String?, query: DriveQueryParameters) async throws
        -> Response
    {
        guard let boundary = MultipartRelated.boundary(ofContentType: request.headers[.contentType] ?? "") else {
            throw DriveFailure(.badRequest("Invalid multipart request with 0 mime parts."))
        }
        let scratch = blobs.scratchDirectory.appendingPathComponent(UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let parts: MultipartRelated.Parts
        do {
            parts = try await MultipartRelated.read(
                request.body, boundary: boundary, into: scratch, metadataLimit: 1 << 20,
                mediaLimit: options.maxUploadBytes
            )
        } catch MultipartRelated.Problem.malformed(let message) {
            throw DriveFailure(.badRequest(message))
        } catch MultipartRelated.Problem.tooLarge {
            throw tooLarge()
        }
        let metadata = try FileMetadata(json: try DriveJSON.object(parts.metadata), isUpdate: fileID != nil)
        let blob =
            try parts.media.map { try blobs.store($0) }
            ?? blobs.commit(scratch, info: try BlobStore.hash(fileAt: scratch))
        let sha1 = parts.media.map { Hex.encode(Digest.sha1($0)) }
        return try commit(
            fileID: fileID, metadata: metadata, blob: blob, sha1: sha1, contentType: parts.mediaType, query: query)
    }

    private func startResumable(_ request: inout Request, fileID: String?, query: DriveQueryParameters) async throws
        -> Response
    {
        let metadata = try FileMetadata(json: try await metadataBody(&request), isUpdate: fileID != nil)
        var total: Int64?
        if let name = HTTPField.Name("X-Upload-Content-Length"), let text = request.headers[name] {
            guard let value = Int64(text), value >= 0 else {
                throw DriveFailure(.badRequest("Invalid X-Upload-Content-Length header: \(text)"))
            }
            guard value <= options.maxUploadBytes else { throw tooLarge() }
            total = value
        }
        let contentType = HTTPField.Name("X-Upload-Content-Type").flatMap { request.headers[$0] }
        if fileID == nil {
            _ = try store.withState { state throws(DriveFailure) in
                for parent in metadata.parents ?? [] { _ = try state.parentFolder(parent) }
            }
        }
        // The session URI carries the starting request's parameters, as Google's does, but no token.
        let forwarded = FormFields(
            query.fields.filter { $0.name != "upload_id" && !SecretRedaction.isSecret(name: $0.name) })
        let id = try uploads.start(
            fileID: fileID, metadata: metadata, query: forwarded.encoded, contentType: contentType, total: total)
        var location = forwarded
        location.append("upload_id", id)
        let scheme = options.scheme
        let authority = request.head.authority ?? "127.0.0.1"
        let path = fileID.map { "/upload/drive/v3/files/\($0)" } ?? "/upload/drive/v3/files"
        var headers: HTTPFields = [.location: "\(scheme)://\(authority)\(path)?\(location.encoded)"]
        if let name = HTTPField.Name("X-GUploader-UploadID") { headers[name] = id }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer()))
    }

    /// A `PUT` to a session URI: a chunk (`Content-Range: bytes a-b/total`) or a status query
    /// (`Content-Range: bytes */total`).
    func resumableChunk(_ request: inout Request) async throws -> Response {
        let query = DriveQueryParameters(request)
        guard let id = query["upload_id"] else {
            throw DriveFailure(
                DriveErrorBody(
                    code: 400, reason: "required", message: "Required parameter: upload_id", location: "upload_id"))
        }
        var session: ResumableSessions.Session
        do { session = try uploads.claim(id) } catch {
            switch error {
            case .notFound:
                throw DriveFailure(
                    DriveErrorBody(
                        code: 404, reason: "notFound", message: "The upload session was not found or has expired.",
                        location: "upload_id"))
            case .busy:
                throw DriveFailure(
                    DriveErrorBody(
                        code: 409, reason: "conflict", message: "Another request is writing to this upload session."))
            }
        }
        let before = session
        do {
            let response = try await handleChunk(&request, id: id, session: &session)
            uploads.release(id, session)
            return response
        } catch {
            guard FileManager.default.fileExists(atPath: before.file.path) else {
                // The bytes went into the blob store but the file could not be committed.
                uploads.discard(id)
                throw error
            }
            // Only acknowledged bytes survive: drop whatever this request appended.
            if let handle = try? FileHandle(forWritingTo: before.file) {
                try? handle.truncate(atOffset: UInt64(before.received))
                try? handle.close()
            }
            uploads.release(id, before)
            throw error
        }
    }

    private func handleChunk(_ request: inout Request, id: String, session: inout ResumableSessions.Session)
        async throws -> Response
    {
        let range = try ContentRange(
            request.headers[.contentRange], contentLength: request.headers[.contentLength], received: session.received)
        if let total = range.total {
            if let known = session.total, known != total {
                throw DriveFailure(
                    .badRequest(
                        "The total size in Content-Range (\(total)) does not match the upload's size (\(known))."))
            }
            guard total <= options.maxUploadBytes else { throw tooLarge() }
        }
        if let completed = session.completedFileID {
            // The upload already finished: answer with the file again.
            return try finishedAnswer(fileID: completed, session: session)
        }
        if let bytes = range.bytes {
            guard bytes.lowerBound <= session.received else {
                throw DriveFailure(
                    .badRequest(
                        "Invalid request. According to the Content-Range header, the upload offset is \(bytes.lowerBound) byte(s), which exceeds already uploaded size of \(session.received) byte(s)."
                    ))
            }
            let total = range.total ?? session.total
            if let total, bytes.upperBound > total {
                throw DriveFailure(.badRequest("The Content-Range header names bytes past the upload's total size."))
            }
            let isLast = total.map { bytes.upperBound == $0 } ?? false
            let length = bytes.upperBound - bytes.lowerBound
            if !isLast, length % Self.resumableChunkGranularity != 0 {
                throw DriveFailure(
                    .badRequest(
                        "Invalid request. The number of bytes uploaded is required to be equal or greater than 262144, except for the final request (it's recommended to be the exact multiple of 262144). The received request contained \(length) bytes, which does not meet this requirement."
                    ))
            }
            guard bytes.upperBound <= options.maxUploadBytes else { throw tooLarge() }
            let skip = session.received - bytes.lowerBound
            let written = try await Self.append(
                request.body, to: session.file, at: session.received, skipping: skip, expecting: length)
            guard written == length else {
                throw DriveFailure(
                    .badRequest("The request body holds \(written) bytes but Content-Range names \(length)."))
            }
            session.received = max(session.received, bytes.upperBound)
            if let total { session.total = total }
        } else {
            for try await buffer in request.body where buffer.readableBytes > 0 {
                throw DriveFailure(.badRequest("A status query must not carry a body."))
            }
            if let total = range.total { session.total = total }
        }
        guard let total = session.total, session.received == total else {
            var headers: HTTPFields = [:]
            if session.received > 0 { headers[.range] = "bytes=0-\(session.received - 1)" }
            return Response(
                status: HTTPResponse.Status(code: 308, reasonPhrase: "Resume Incomplete"), headers: headers,
                body: ResponseBody(byteBuffer: ByteBuffer()))
        }
        // Moved into the store: the session file is gone from here on.
        let blob = try blobs.commit(session.file, info: try BlobStore.hash(fileAt: session.file))
        let query = DriveQueryParameters(query: session.query)
        let resource = try commitResource(
            fileID: session.fileID, metadata: session.metadata, blob: blob, contentType: session.contentType,
            query: query
        )
        session.completedFileID = resource["id"] as? String
        return try answer(resource, query: query, schema: .file, defaultFields: DefaultFields.file)
    }

    private func finishedAnswer(fileID: String, session: ResumableSessions.Session) throws -> Response {
        let resource = try store.withState { state throws(DriveFailure) in state.resource(try state.node(fileID)) }
        return try answer(
            resource, query: DriveQueryParameters(query: session.query), schema: .file,
            defaultFields: DefaultFields.file)
    }

    /// Appends a body to a file at `offset`, dropping its first `skip` bytes (already stored).
    /// - Returns: How many bytes the body had (stops counting past `expecting`).
    private static func append(
        _ body: RequestBody, to file: URL, at offset: Int64, skipping skip: Int64, expecting: Int64
    ) async throws -> Int64 {
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        try handle.truncate(atOffset: UInt64(offset))
        try handle.seek(toOffset: UInt64(offset))
        var count: Int64 = 0
        for try await buffer in body {
            let view = buffer.readableBytesView
            let start = count
            count += Int64(view.count)
            if count > expecting { return count }
            let dropped = max(0, min(Int64(view.count), skip - start))
            if dropped < Int64(view.count) {
                try handle.write(contentsOf: Data(view.dropFirst(Int(dropped))))
            }
        }
        return count
    }
}

/// A `Content-Range` header of a resumable upload request.
struct ContentRange {
    /// The bytes this request carries (`a..<b+1`), or `nil` for a status query (`bytes */N`).
    var bytes: Range<Int64>?
    /// The upload's total size, or `nil` when unknown (`/*`).
    var total: Int64?

    /// Parses the header; without one, the body is the rest of the upload.
    /// - Throws: 400 `badRequest` when it is malformed.
    init(_ header: String?, contentLength: String?, received: Int64) throws(DriveFailure) {
        guard let header else {
            guard let text = contentLength, let length = Int64(text), length >= 0 else {
                throw DriveFailure(.badRequest("A resumable upload request needs Content-Range or Content-Length."))
            }
            bytes = length == 0 ? nil : received..<(received + length)
            total = received + length
            return
        }
        let bad = DriveFailure(.badRequest("Failed to parse Content-Range header."))
        guard header.hasPrefix("bytes ") else { throw bad }
        let spec = header.dropFirst(6).trimmingOptionalWhiteSpace
        let halves = spec.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard halves.count == 2 else { throw bad }
        if halves[1] == "*" {
            total = nil
        } else {
            guard let value = Int64(halves[1]), value >= 0 else { throw bad }
            total = value
        }
        if halves[0] == "*" {
            bytes = nil
            return
        }
        let ends = halves[0].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard ends.count == 2, let first = Int64(ends[0]), let last = Int64(ends[1]), first >= 0, last >= first else {
            throw bad
        }
        bytes = first..<(last + 1)
    }
}
