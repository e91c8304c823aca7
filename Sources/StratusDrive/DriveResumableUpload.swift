import Foundation
import Stratus
import StratusAdapterKit
import StratusHTTP

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
    func initiate(method: StratusHTTPMethod, url: URL, metadata: Data, action: String) async throws -> URL {
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
            throw DriveErrorMapping.undecodable(
                action, "the answer (HTTP \(response.status)) has no usable Location header for the upload session")
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

    /// Asks a session how much it holds, repeating the question after transient failures and
    /// while the session is still busy with an abandoned request (a 409, as the mock answers
    /// while a cancelled chunk is still arriving), within the retry policy's attempts.
    /// - Throws: ``SessionExpired`` for a 404.
    func status(of session: URL) async throws -> Status {
        try await transport.configuration.retryPolicy.run(isRetryable: DriveResumableUpload.mayAskAgain) { _ in
            try await statusOnce(of: session)
        }
    }

    /// Asks a session once how much it holds.
    /// - Throws: ``SessionExpired`` for a 404.
    private func statusOnce(of session: URL) async throws -> Status {
        let size = content.size
        do {
            let response = try await transport.send("resumable upload status", repetition: .never, accepted: [308]) {
                var request = StratusHTTPRequest(method: .put, url: session)
                request.headers.set("Content-Range", "bytes */\(size)")
                return request
            }
            return try interpret(response, action: "resumable upload status")
        } catch let error as ServiceError where error.code == .notFound {
            throw SessionExpired()
        }
    }

    /// Whether a failed chunk or status question may be followed by another question: a
    /// transient failure, or a session busy with an abandoned request (409).
    @Sendable private static func mayAskAgain(_ error: any Error) -> Bool {
        guard let error = error as? ServiceError else { return false }
        return error.code.isTransient || error.httpStatus == 409
    }

    /// Sends the content from `offset` to the end, chunk by chunk. Each chunk is one run of the
    /// retry policy's loop: its first attempt sends the chunk (once), and after a failure each
    /// further attempt asks the session how much arrived, so every request to the session
    /// counts against the policy's attempts. A chunk that moves the upload forward starts a
    /// new count.
    /// - Returns: The file Drive reports at the end.
    /// - Throws: ``SessionExpired`` for a 404; ``/Stratus/ServiceError`` when recovery runs out
    ///   of attempts or for failures that are not transient.
    func send(to session: URL, from start: Int64) async throws -> DriveFile {
        let size = content.size
        let policy = transport.configuration.retryPolicy
        var offset = start
        var stalls = 0
        while true {
            try Task.checkCancellation()
            let range = offset..<min(offset + chunkSize, size)
            let (status, asked) = try await policy.run(isRetryable: DriveResumableUpload.mayAskAgain) { attempt in
                if attempt > 1 { return (try await statusOnce(of: session), true) }
                do {
                    let response = try await transport.send(
                        "resumable upload chunk", repetition: .never, accepted: [308],
                        progress: progress.upload(from: range.lowerBound, limit: size)
                    ) { [content] in
                        var request = StratusHTTPRequest(method: .put, url: session)
                        request.headers.set(
                            "Content-Range",
                            range.isEmpty
                                ? "bytes */\(size)" : "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(size)")
                        request.body = content.body(range)
                        return request
                    }
                    return (try interpret(response, action: "resumable upload chunk"), false)
                } catch let error as ServiceError where error.code == .notFound {
                    throw SessionExpired()
                }
            }
            switch status {
            case .complete(let file):
                return file
            case .incomplete(let received):
                if received > offset {
                    stalls = 0
                } else if !asked {
                    // Drive answered but kept nothing new: do not ask forever.
                    stalls += 1
                    guard stalls < policy.maximumAttempts else {
                        throw ServiceError(
                            .server,
                            "Drive keeps \(received) of \(size) bytes of the upload and takes no more; try again.")
                    }
                }
                offset = received
            }
        }
    }

    /// Reads a 308 (with or without `Range`) or a 200/201 answer.
    private func interpret(_ response: StratusHTTPResponse, action: String) throws -> Status {
        if response.status == 308 {
            guard let range = response.headers["Range"] else { return .incomplete(received: 0) }
            guard let received = DriveResumableUpload.receivedBytes(range, size: content.size) else {
                throw DriveErrorMapping.undecodable(
                    action,
                    "the Range header '\(range)' is not bytes=0-<last> with <last> below the upload's \(content.size) bytes"
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
        guard trimmed.hasPrefix("bytes=0-"), let last = Int64(trimmed.dropFirst("bytes=0-".count)), last >= 0,
            last < size
        else {
            return nil
        }
        return last + 1
    }
}
