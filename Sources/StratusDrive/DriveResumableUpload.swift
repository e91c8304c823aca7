import Foundation
import Stratus
import StratusHTTP
import StratusTransfer

/// One resumable upload session (`uploadType=resumable`): initiated with the file's metadata,
/// then fed in chunks of `chunkSize` bytes (a multiple of 256 KiB), each a
/// `PUT <session> Content-Range: bytes a-b/N`. Drive answers 308 with
/// `Range: bytes=0-<last>` until the last chunk, then 200 or 201 with the file.
///
/// When a chunk's outcome is unknown (the connection failed, Drive answered 5xx), the session
/// is asked how much arrived (`PUT` with an empty body and `Content-Range: bytes */N`) and the
/// upload goes on from the first missing byte, so nothing is sent twice in vain and nothing is
/// skipped. A 404 means the session expired (after about a week).
struct DriveResumableUpload: Sendable {
    /// Where a session stands.
    enum Status: Sendable, Equatable {
        /// Drive holds the first `received` bytes.
        case incomplete(received: Int64)
        /// Drive created or updated the file.
        case complete(DriveFile)
    }

    /// The session expired or is unknown to Drive; start a new one.
    struct SessionExpired: Error, Sendable {}

    let transport: DriveTransport
    let content: UploadContent
    let chunkSize: Int64
    let progress: MonotonicProgress

    /// Opens a session: `POST` (new file) or `PATCH` (new content for a file) of the upload URL
    /// with the metadata as JSON; Drive answers 200 with the session URI in `Location`, which is
    /// accepted only on the upload URL's scheme, host and port (every chunk carries the token).
    /// Repeating an initiation only leaves an unused session behind, so it is retried freely.
    func initiate(method: HTTPMethod, url: URL, metadata: Data, action: String) async throws -> URL {
        let size = content.size
        let response = try await transport.send(action, repetition: .safe) {
            var request = DriveTransport.request(method, url, json: metadata)
            request.headers.set("X-Upload-Content-Type", "application/octet-stream")
            request.headers.set("X-Upload-Content-Length", String(size))
            return request
        }
        guard response.status == 200, let location = response.headers["Location"],
              let session = URL(string: location, relativeTo: url)?.absoluteURL
        else {
            throw DriveErrorMapping.undecodable(action, "the answer (HTTP \(response.status)) has no usable Location header for the upload session")
        }
        // Every chunk carries the bearer token: a session elsewhere would receive it.
        guard URLOrigin.same(session, url) else {
            throw DriveErrorMapping.undecodable(
                action,
                "the upload session is on \(URLOrigin(session)?.description ?? "another origin"), not on the upload URL's \(URLOrigin(url)?.description ?? "origin"); no content or credentials were sent there"
            )
        }
        return session
    }

    /// Asks a session how much it holds. A session still busy with an abandoned request (a
    /// 409, as the mock answers while a cancelled chunk is still arriving) is asked again after
    /// the retry policy's delays.
    /// - Throws: ``SessionExpired`` for a 404.
    func status(of session: URL) async throws -> Status {
        let size = content.size
        let policy = transport.configuration.retryPolicy
        var attempt = 1
        while true {
            let response: HTTPResponse
            do {
                response = try await transport.send("resumable upload status", repetition: .safe, accepted: [308]) {
                    var request = HTTPRequest(method: .put, url: session)
                    request.headers.set("Content-Range", "bytes */\(size)")
                    return request
                }
            } catch let error as ServiceError where error.code == .notFound {
                throw SessionExpired()
            } catch let error as ServiceError where error.httpStatus == 409 && attempt < policy.maximumAttempts {
                try await sleep(policy.delay(afterAttempt: attempt))
                attempt += 1
                continue
            }
            return try interpret(response, action: "resumable upload status")
        }
    }

    /// Sends the content from `offset` to the end, chunk by chunk, recovering from failed chunks
    /// through ``status(of:)``. Failures count against the retry policy's attempts; a chunk that
    /// moves the upload forward resets the count.
    /// - Returns: The file Drive reports at the end.
    /// - Throws: ``SessionExpired`` for a 404; ``Stratus/ServiceError`` when recovery runs out
    ///   of attempts or for failures that are not transient.
    func send(to session: URL, from start: Int64) async throws -> DriveFile {
        let size = content.size
        let policy = transport.configuration.retryPolicy
        var offset = start
        var failures = 0
        while true {
            try Task.checkCancellation()
            let end = min(offset + chunkSize, size)
            let range = offset..<end
            let status: Status
            var failed = false
            do {
                let response = try await transport.send(
                    "resumable upload chunk", repetition: .onlyWhenRefused, accepted: [308],
                    progress: progress.upload(from: offset, limit: size)
                ) { [content] in
                    var request = HTTPRequest(method: .put, url: session)
                    request.headers.set("Content-Range", range.isEmpty ? "bytes */\(size)" : "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(size)")
                    request.body = content.body(range)
                    return request
                }
                status = try interpret(response, action: "resumable upload chunk")
            } catch let error as ServiceError where error.code == .notFound {
                throw SessionExpired()
            } catch let error as ServiceError where error.code.isTransient {
                failures += 1
                failed = true
                guard failures < policy.maximumAttempts else { throw error }
                try await sleep(policy.delay(afterAttempt: failures, retryAfter: error.retryAfter))
                status = try await self.status(of: session)
            }
            switch status {
            case .complete(let file):
                return file
            case .incomplete(let received):
                if received > offset {
                    failures = 0
                } else if !failed {
                    // Drive answered but kept nothing new: do not ask forever.
                    failures += 1
                    guard failures < policy.maximumAttempts else {
                        throw ServiceError(.server, "Drive keeps \(received) of \(size) bytes of the upload and takes no more; try again.")
                    }
                }
                offset = received
            }
        }
    }

    /// Reads a 308 (with or without `Range`) or a 200/201 answer.
    private func interpret(_ response: HTTPResponse, action: String) throws -> Status {
        if response.status == 308 {
            guard let range = response.headers["Range"] else { return .incomplete(received: 0) }
            guard let received = DriveResumableUpload.receivedBytes(range, size: content.size) else {
                throw DriveErrorMapping.undecodable(
                    action, "the Range header '\(range)' is not bytes=0-<last> with <last> below the upload's \(content.size) bytes"
                )
            }
            return .incomplete(received: received)
        }
        return .complete(try DriveTransport.decode(DriveFile.self, from: response.body, action: action))
    }

    /// The number of bytes a `Range: bytes=0-<last>` header says arrived (`last + 1`); `nil`
    /// when the header is malformed or names a byte at or beyond `size`, the upload's length
    /// (the server chose the number, so it is checked before any arithmetic).
    static func receivedBytes(_ header: String, size: Int64) -> Int64? {
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("bytes=0-"), let last = Int64(trimmed.dropFirst("bytes=0-".count)), last >= 0, last < size else {
            return nil
        }
        return last + 1
    }

    private func sleep(_ duration: Duration) async throws {
        do {
            try await Task.sleep(for: duration)
        } catch {
            throw ServiceError(.cancelled, "The upload was cancelled while waiting to resume.")
        }
    }
}
