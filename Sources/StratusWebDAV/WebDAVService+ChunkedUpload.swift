import Foundation
import Stratus
import StratusAdapterKit
import StratusDigest
import StratusFileSystem
import StratusHTTP

/// Nextcloud's chunked upload (v2) for uploads above ``WebDAVConfiguration/chunkedUploadThreshold``:
/// the chunks go to an upload folder of their own, and one MOVE of its `.file` assembles them
/// into the target, which Nextcloud writes as a new version of the file (a MOVE of a finished
/// file over the target would delete the target and its versions).
///
/// The upload folder's name comes from the target, the size, the content's SHA-256 and the
/// chunk size (see ``NextcloudChunkedRequests/transferID(destination:totalSize:sha256:chunkSize:)``),
/// so an upload of the same content that failed on a lost connection, a timeout or a server
/// error (the folder is kept then) is resumed by the next upload call: PROPFIND of the folder
/// lists the chunks there, and only the missing ones, and those of another size, are sent. Each
/// chunk's PUT is repeated by the one retry loop (sending the same bytes to the same chunk is
/// harmless). A cancelled upload, or one that failed for good (a refused precondition, a chunk
/// too large), deletes its folder before its error is thrown; Nextcloud deletes the ones left
/// behind after 24 hours without activity.
extension WebDAVService {
    /// Uploads content through chunked upload and assembles it into the path (under the path's
    /// lock). The caller then reads the target's entry and records the state.
    /// - Parameters:
    ///   - content: The content.
    ///   - path: The target.
    ///   - current: The target's entry before the write (the precondition was checked on it).
    ///   - precondition: The precondition, carried on the assembling MOVE.
    ///   - modified: The modification time to give the file (it names the version).
    ///   - progress: The upload's progress.
    /// - Returns: The content's SHA-256.
    /// - Throws: ``/Stratus/ServiceError/Code/conflict`` when the precondition fails on the MOVE
    ///   (nothing was written); ``/Stratus/ServiceError/Code/payloadTooLarge`` when Nextcloud
    ///   refuses a chunk as too large; what the requests throw.
    func writeChunked(
        _ content: UploadContent, to path: RemotePath, current: WebDAVEntry?, precondition: WritePrecondition,
        modified: Int64, progress: MonotonicProgress
    ) async throws -> String {
        let plan = NextcloudChunkPlan(totalSize: content.size, chunkSize: configuration.chunkSize)
        // One read of the content before the first request (off Swift's thread pool): the
        // whole hash names the upload folder, and each chunk's is checked against what its PUT
        // hashed as it sent it, so content that changes during the upload is an error, never a
        // file whose recorded hash is not its content's.
        let (sha256, chunkDigests) = try await BlockingWork.run { flag in
            try Self.digests(of: content, plan: plan, isCancelled: { flag.isCancelled })
        }
        let destination = try url(for: path)
        let transferID = NextcloudChunkedRequests.transferID(
            destination: destination, totalSize: content.size, sha256: sha256, chunkSize: plan.chunkSize)
        let folder = try NextcloudChunkedRequests.uploadFolder(configuration, transferID: transferID)
        let condition: NextcloudChunkedRequests.TargetCondition
        switch precondition {
        case .none: condition = .none
        case .mustNotExist: condition = .mustNotExist
        case .mustMatch: condition = current?.etag.map { .mustMatch(etag: $0) } ?? .none
        }
        if current == nil, let parent = path.parent, !parent.isRoot {
            let parentEntry = try await transport.propfind(
                try url(for: parent), depth: 0, action: "PROPFIND of \(parent)")?.first
            if parentEntry?.isCollection != true { try await ensureFolders(parent) }
        }
        do {
            try await sendChunks(
                content, plan: plan, digests: chunkDigests, folder: folder, destination: destination, path: path,
                progress: progress)
            let headers = NextcloudChunkedRequests.assemblyHeaders(
                destination: destination, totalSize: content.size, modified: modified, sha256: sha256,
                condition: condition)
            try await assemble(
                folder, headers: headers, path: path, size: content.size, modified: modified,
                previousETag: current?.etag)
        } catch {
            if Self.keepsUploadFolder(after: error) {
                logger.debug(
                    "A chunked upload failed; its chunks are kept for the next upload of the same content",
                    metadata: ["path": "\(path)", "error": "\(error)"])
            } else {
                await discard(folder, label: "a chunked upload's folder")
            }
            throw error
        }
        progress.report(content.size)
        return sha256
    }

    /// Whether a chunked upload that failed with an error keeps its folder for the next upload
    /// of the same content: after a transient failure (a lost connection, a timeout, a server
    /// error, a rate limit), unless the task was cancelled.
    static func keepsUploadFolder(after error: any Error) -> Bool {
        guard !Task.isCancelled, let error = error as? ServiceError else { return false }
        return error.code.isTransient
    }

    /// The SHA-256 of the content and of each chunk, in one read, which stops between two
    /// chunks once `isCancelled` says so.
    /// - Throws: `CancellationError` when cancelled; what reading the content throws.
    static func digests(of content: UploadContent, plan: NextcloudChunkPlan, isCancelled: () -> Bool) throws -> (
        String, [String]
    ) {
        let whole = SHA256Digest()
        var chunks: [String] = []
        for chunk in plan.chunks {
            if isCancelled() { throw CancellationError() }
            let digest = SHA256Digest()
            try content.read(chunk.range) { _, bytes in
                whole.update(bytes)
                digest.update(bytes)
            }
            chunks.append(Hex.encode(digest.finalize()))
        }
        return (Hex.encode(whole.finalize()), chunks)
    }

    /// Makes the upload folder unless it exists, and sends the chunks it does not hold yet,
    /// each checked against its digest (`digests`, by chunk number from 1) as it is sent.
    private func sendChunks(
        _ content: UploadContent, plan: NextcloudChunkPlan, digests: [String], folder: URL, destination: URL,
        path: RemotePath, progress: MonotonicProgress
    ) async throws {
        let present = try await chunksPresent(in: folder, path: path)
        if present == nil { try await makeUploadFolder(folder, destination: destination, path: path) }
        let resumption = plan.resumption(present: present ?? [:])
        if present != nil {
            logger.debug(
                "Resuming a chunked upload",
                metadata: [
                    "path": "\(path)", "chunks": "\(plan.chunks.count - resumption.toSend.count)/\(plan.chunks.count)",
                ])
        }
        for name in resumption.toDelete {
            do {
                _ = try await transport.send(
                    transport.request(.delete, try WebDAVTransport.url(in: folder, named: name)),
                    action: "DELETE of a stray chunk of the upload of \(path)", repetition: .safe)
            } catch let error as ServiceError where error.code == .notFound {
                continue
            }
        }
        var sent = resumption.keptBytes
        progress.report(sent)
        let headers = NextcloudChunkedRequests.chunkHeaders(destination: destination, totalSize: plan.totalSize)
        for chunk in resumption.toSend {
            try Task.checkCancellation()
            let action = "PUT of chunk \(chunk.number) of \(plan.chunks.count) of \(path)"
            var request = transport.request(
                .put, try WebDAVTransport.url(in: folder, named: chunk.name), headers: headers,
                body: content.body(chunk.range))
            request.requestDigests = [.sha256]
            let response: StratusHTTPResponse
            do {
                // The same bytes to the same chunk: repeating is harmless.
                response = try await transport.send(
                    request, action: action, repetition: .safe, progress: progress.upload(from: sent))
            } catch let error as ServiceError where error.code == .payloadTooLarge {
                throw ServiceError(
                    .payloadTooLarge,
                    "Nextcloud refused chunk \(chunk.number) of \(path) (\(chunk.size) bytes) as too large (HTTP 413); set the remote's chunk_size below the server's limit on one request (it is \(configuration.chunkSize) bytes).",
                    httpStatus: error.httpStatus)
            }
            guard response.requestBodyDigests[.sha256] == digests[chunk.number - 1] else {
                throw ServiceError(
                    .localFile,
                    "The content of \(path) changed while it was being uploaded (chunk \(chunk.number) is not what was hashed before the upload); nothing was written."
                )
            }
            sent += chunk.size
            progress.report(sent)
        }
    }

    /// The size of each file directly in the upload folder by name, or `nil` when there is no
    /// folder. The names are the server's: only chunk names are ever put in a request (see
    /// ``NextcloudChunkPlan/resumption(present:)``).
    private func chunksPresent(in folder: URL, path: RemotePath) async throws -> [String: Int64]? {
        guard
            let entries = try await transport.propfind(
                folder, depth: 1, action: "PROPFIND of the chunked upload of \(path)")
        else { return nil }
        let folderPath = WebDAVEntry.hrefPath(folder.path(percentEncoded: true))
        var present: [String: Int64] = [:]
        for entry in entries where !entry.isCollection {
            var href = Substring(entry.href)
            while href.hasSuffix("/") { href = href.dropLast() }
            guard href.hasPrefix(folderPath) else { continue }
            let name = href.dropFirst(folderPath.count)
            guard !name.isEmpty, !name.contains("/") else { continue }
            present[String(name)] = entry.size ?? -1
        }
        return present
    }

    /// MKCOL of the upload folder, naming the target in `Destination`; a folder there already
    /// (405: made by an attempt whose answer was lost) is success.
    private func makeUploadFolder(_ folder: URL, destination: URL, path: RemotePath) async throws {
        let action = "MKCOL of the chunked upload of \(path)"
        let request = transport.request(
            WebDAVTransport.mkcol, folder, headers: NextcloudChunkedRequests.folderHeaders(destination: destination))
        try await configuration.retryPolicy.run(.safe) { _ in
            let response = try await transport.exchange(request, action: action)
            if response.status == 405 { return }
            try transport.check(response, method: request.method, action: action)
        }
    }

    /// MOVE of the upload folder's `.file` onto the target. After a failure of unknown outcome,
    /// PROPFIND looks for the assembled file (the upload folder gone, the target with the
    /// modification time the MOVE set, the size, and a new ETag) before the MOVE is sent again.
    private func assemble(
        _ folder: URL, headers: [(String, String)], path: RemotePath, size: Int64, modified: Int64,
        previousETag: String?
    ) async throws {
        let request = transport.request(
            WebDAVTransport.move, try WebDAVTransport.url(in: folder, named: NextcloudChunkPlan.futureFileName),
            headers: headers,
            isIdempotent: false)
        let action = "MOVE of the chunked upload onto \(path)"
        let transport = self.transport
        do {
            try await configuration.retryPolicy.runWrite(lookFirst: {
                guard try await transport.propfind(folder, depth: 0, action: "PROPFIND of a chunked upload") == nil,
                    let entry = try await self.entry(path), !entry.isCollection, entry.size == size,
                    let time = entry.modified, Int64(time.timeIntervalSince1970) == modified, entry.etag != previousETag
                else { return nil }
                return ()
            }) { _ in
                _ = try await transport.send(request, action: action, repetition: .never)
            }
        } catch let error as ServiceError where error.httpStatus == 412 {
            throw ServiceError(
                .conflict, "\(path) changed before it could be written; nothing was written.", httpStatus: 412)
        } catch let error as ServiceError where error.code == .notFound {
            throw ServiceError(
                .server,
                "Nextcloud no longer has the chunks of the upload of \(path) (it deletes upload folders idle for 24 hours); nothing was written, and the next upload starts over.",
                httpStatus: error.httpStatus)
        }
    }

    /// Checks the `oc:checksums` of the assembled file against the content's SHA-256, when
    /// Nextcloud lists one.
    /// - Throws: ``/Stratus/ServiceError/Code/integrityMismatch`` when it lists another.
    func checkChecksum(_ entry: WebDAVEntry, sha256: String, path: RemotePath) throws {
        guard let listed = entry.checksums.flatMap(NextcloudChunkedRequests.sha256(inChecksums:)) else { return }
        guard listed == sha256 else {
            throw ServiceError(
                .integrityMismatch,
                "Nextcloud lists SHA-256 \(listed) for \(path) after a chunked upload of content with SHA-256 \(sha256)."
            )
        }
    }
}
