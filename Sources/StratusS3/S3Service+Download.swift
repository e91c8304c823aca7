public import Foundation
public import Stratus
import StratusAdapterKit
import StratusDigest
import StratusHTTP
import Synchronization

/// Downloads through `GetObject`, streamed to a temporary file beside the destination, resumed
/// with `Range` after a dropped connection, and checked before the destination is replaced.
extension S3Service {
    /// Reads a file (or one of its versions) into a local file. See
    /// ``/Stratus/Service/download(_:version:to:options:)``.
    ///
    /// The body is hashed as it arrives. When the connection drops midway (a transient failure),
    /// the download goes on from the bytes already received with `Range`, pinned to the same
    /// version (`versionId`) and content (`If-Match` with its ETag), within the retry policy's
    /// attempts. The SHA-256 is then compared with `x-amz-meta-stratus-sha256` (or, for objects
    /// written by other tools, the MD5 with a single-part ETag; a multipart ETag leaves only the
    /// size to check), and only matching content is flushed and renamed over the destination.
    public func download(_ path: RemotePath, version: VersionID?, to destination: URL, options: DownloadOptions)
        async throws -> RemoteFile
    {
        try await guarded {
            try validateFile(path)
            var versionParameter: String?
            if let version {
                if configuration.versioning == .off {
                    let current = try await headDescription(path, version: nil)
                    guard current.etag == version.rawValue else {
                        throw ServiceError(
                            .notFound,
                            "\(path) has no version \(version); without bucket versioning only the current one can be read."
                        )
                    }
                } else {
                    try await ensureVersioning()
                    versionParameter = version.rawValue
                }
            }
            let staging = try DownloadStaging(for: destination, service: "s3")
            defer { staging.discard() }
            let handle: FileHandle
            do {
                handle = try FileHandle(forWritingTo: staging.temporary)
            } catch {
                throw ServiceError(
                    .localFile, "\(staging.temporary.path) could not be opened: \(error.localizedDescription)")
            }
            defer { try? handle.close() }

            let received = try await receive(path, version: versionParameter, into: handle, progress: options.progress)
            let description = received.description
            guard received.bytes == description.size else {
                throw ServiceError(
                    .integrityMismatch,
                    "\(received.bytes) bytes of \(path) arrived where S3 announced \(description.size); the destination was left as it was."
                )
            }
            if let expected = description.sha256 {
                guard received.sha256 == expected else {
                    throw ServiceError(
                        .integrityMismatch,
                        "The content of \(path) received from S3 has SHA-256 \(received.sha256), not the \(expected) recorded at upload; the destination was left as it was."
                    )
                }
            } else if S3ObjectDescription.isContentMD5(description.etag), received.md5 != description.etag.lowercased()
            {
                throw ServiceError(
                    .integrityMismatch,
                    "The content of \(path) received from S3 has MD5 \(received.md5), not its ETag \(description.etag); the destination was left as it was."
                )
            }
            try staging.moveIntoPlace()
            return try file(path, from: description)
        }
    }

    /// What arrived: the object's description (from the first answer) and the body's digests.
    private struct Received {
        var description: S3ObjectDescription
        var bytes: Int64
        var sha256: String
        var md5: String
    }

    /// The state of a download across its attempts.
    private struct Progress {
        var description: S3ObjectDescription?
        var received: Int64 = 0
        let sha = SHA256Digest()
        let md5 = MD5Digest()
    }

    /// Streams the body into a file, resuming with `Range` after transient failures: each
    /// attempt of the retry policy's loop (`Repetition.safe`) goes on from
    /// the bytes already received, so a download makes at most `maximumAttempts` requests and
    /// honours `Retry-After` like every other request.
    private func receive(
        _ path: RemotePath, version: String?, into handle: FileHandle, progress handler: ProgressHandler?
    ) async throws -> Received {
        let state = Mutex(Progress())
        let action = "GetObject of \(path)"
        let progress = MonotonicProgress(handler, total: nil)
        let (transport, logger, key) = (transport, logger, key(for: path))
        return try await configuration.retryPolicy.run(.safe) { attempt in
            do {
                try Task.checkCancellation()
                let (description, received) = state.withLock { ($0.description, $0.received) }
                if attempt > 1 {
                    logger.debug("Resuming a download", metadata: ["path": "\(path)", "received": "\(received)"])
                }
                var request = S3Transport.Request(method: .get, key: key, action: action)
                if let pinned = description?.versionID.flatMap({ $0 == "null" ? nil : $0 }) ?? version {
                    request.query = [("versionId", pinned)]
                }
                if let description, received > 0 {
                    request.headers = [("Range", "bytes=\(received)-"), ("If-Match", "\"\(description.etag)\"")]
                }
                let signed = try transport.signed(request)
                let response = try await transport.http.stream(signed)
                guard (200..<300).contains(response.status) else {
                    let body = (try? await response.body.collect(upTo: 64 * 1024)) ?? Data()
                    let error = S3ErrorMapping.error(
                        status: response.status, headers: response.headers, body: body, action: action,
                        secrets: transport.secrets)
                    if version != nil, [400, 405].contains(response.status) || error.code == .notFound {
                        throw ServiceError(
                            .notFound, "\(path) has no version \(version ?? "").", httpStatus: response.status,
                            providerError: error.providerError)
                    }
                    throw error
                }
                var total = description?.size
                if received > 0 {
                    let range = response.headers["Content-Range"] ?? ""
                    guard response.status == 206, range.hasPrefix("bytes \(received)-") else {
                        throw S3ErrorMapping.undecodable(action, "a resumed download did not start at byte \(received)")
                    }
                } else {
                    let first = try S3ObjectDescription(headers: response.headers, action: action)
                    state.withLock { $0.description = first }
                    total = first.size
                }
                for try await chunk in response.body {
                    if let total, Int64(chunk.count) > total - state.withLock({ $0.received }) {
                        throw ServiceError(
                            .invalidResponse,
                            "S3 sent more of \(path) than the \(total) bytes it declared; the download was stopped there and the destination left as it was."
                        )
                    }
                    do {
                        try handle.write(contentsOf: chunk)
                    } catch {
                        throw ServiceError(.localFile, "Writing the download failed: \(error.localizedDescription)")
                    }
                    let now = state.withLock { state in
                        state.sha.update(chunk)
                        state.md5.update(chunk)
                        state.received += Int64(chunk.count)
                        return state.received
                    }
                    progress.report(now, total: total)
                }
                return try state.withLock { state in
                    guard let description = state.description else {
                        throw S3ErrorMapping.undecodable(action, "no answer")
                    }
                    return Received(
                        description: description, bytes: state.received, sha256: Hex.encode(state.sha.finalize()),
                        md5: Hex.encode(state.md5.finalize()))
                }
            } catch {
                throw ServiceError.transportFailure(error, action: action)
            }
        }
    }
}
