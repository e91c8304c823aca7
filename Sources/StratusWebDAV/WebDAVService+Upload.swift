import Foundation
public import Stratus
import StratusAdapterKit
import StratusDigest
import StratusHTTP

/// Uploads under the path's lock: on generic servers through a temporary resource moved into
/// place (see ``writeStaged(_:to:current:precondition:metadata:progress:)``); on Nextcloud and
/// ownCloud, which write a PUT to a `.part` file and rename it themselves, one streamed PUT to
/// the target (on Nextcloud above ``WebDAVConfiguration/chunkedUploadThreshold``, or after a
/// PUT refused as too large, chunked upload: see
/// ``writeChunked(_:to:current:precondition:modified:progress:)``), then the state record
/// (PROPPATCH).
extension WebDAVService {
    /// Writes content to a path. See ``/Stratus/Service/upload(from:to:options:)``.
    ///
    /// Under the path's lock (see `withPathLock(_:_:)`): PROPFIND checks the precondition and
    /// that no folder is at the path. On a generic server, PUT streams the content to a
    /// temporary resource in `.stratus/uploads/` (hashed as it is sent), PROPFIND reads its ETag
    /// and size, which must match what was sent, PROPPATCH records the SHA-256, a new version
    /// token and the metadata on it, and MOVE puts it in place (missing parent folders are made
    /// with MKCOL when the server refuses the MOVE for them); PROPFIND checks the result. On
    /// Nextcloud and ownCloud, PUT goes to the path itself and PROPPATCH follows. Each 207
    /// answer of PROPPATCH is checked property by property. Without locks, `mustNotExist` is also sent as `If-None-Match: *` and
    /// `mustMatch` as `If-Match` with a strong ETag; the check is then best effort.
    public func upload(from source: UploadSource, to path: RemotePath, options: UploadOptions) async throws
        -> RemoteFile
    {
        try await guarded {
            guard !path.isRoot else { throw ServiceError(.invalidPath, "The root is a folder; give a file name.") }
            try validate(path)
            if let metadata = options.metadata {
                if !metadata.isEmpty, !configuration.keepsDeadProperties {
                    throw ServiceError(
                        .unsupported, "This WebDAV server keeps no dead properties, so custom metadata cannot be kept.")
                }
                try WebDAVProperties.validate(metadata)
            }
            let content = try UploadContent(source)
            let written = try await withPathLock(path) {
                try await write(content, to: path, options: options)
            }
            await appendJournal(.upserted(written))
            return written
        }
    }

    /// The write itself, under the lock.
    private func write(_ content: UploadContent, to path: RemotePath, options: UploadOptions) async throws -> RemoteFile
    {
        let current = try await entry(path)
        if let current, current.isCollection {
            throw ServiceError(.conflict, "\(path) is a folder; a file cannot be written there.")
        }
        try options.precondition.check(current: current.map(version(of:)), at: path)
        var conditions: [(String, String)] = []
        switch options.precondition {
        case .none:
            break
        case .mustNotExist:
            if !configuration.usesLocks { conditions.append(("If-None-Match", "*")) }
        case .mustMatch:
            if !configuration.usesLocks, let current, let etag = current.etag,
                current.state == nil || !configuration.keepsDeadProperties
            {
                conditions.append(("If-Match", "\"\(etag)\""))
            }
        }
        let metadata: [String: String]? = options.metadata ?? current.flatMap { WebDAVProperties.decode($0.metadata) }
        let progress = MonotonicProgress(options.progress, total: content.size)
        if configuration.writesThroughTemporaryResource, Self.canMove(to: path) {
            let staged = try await writeStaged(
                content, to: path, current: current, precondition: options.precondition, metadata: metadata,
                progress: progress)
            progress.report(content.size)
            return file(path, from: staged.entry)
        }
        var headers = conditions
        var fingerprint: WriteFingerprint?
        if configuration.vendor == .nextcloud {
            // Nextcloud names versions by modification time: keep it moving on for each write.
            let now = Int64(Date().timeIntervalSince1970)
            let previous = current.flatMap { $0.modified.map { Int64($0.timeIntervalSince1970) } } ?? 0
            let modified = max(now, previous + 1)
            headers.append(("X-OC-Mtime", String(modified)))
            fingerprint = WriteFingerprint(modified: modified, size: content.size, previousETag: current?.etag)
        }
        let digests: SentDigests
        var isChunked = false
        if let fingerprint, NextcloudChunkPlan.isChunked(size: content.size, configuration: configuration) {
            isChunked = true
            digests = SentDigests(
                sha256: try await writeChunked(
                    content, to: path, current: current, precondition: options.precondition,
                    modified: fingerprint.modified, progress: progress))
        } else {
            do {
                digests = try await put(
                    content, to: path, headers: headers, isConditional: !conditions.isEmpty, fingerprint: fingerprint,
                    progress: progress)
            } catch let error as ServiceError where error.code == .payloadTooLarge && configuration.usesChunkedUpload {
                // The server's limit on one request is lower than chunked_upload_above.
                guard let fingerprint, content.size > configuration.chunkSize else {
                    throw ServiceError(
                        .payloadTooLarge,
                        "Nextcloud refused the upload of \(path) (\(content.size) bytes) as too large (HTTP 413); set the remote's chunked_upload_above (\(configuration.chunkedUploadThreshold)) and chunk_size (\(configuration.chunkSize)) below the server's limit on one request.",
                        httpStatus: error.httpStatus)
                }
                logger.notice(
                    "Nextcloud refused a PUT as too large; sending it in chunks. Lower the remote's chunked_upload_above to skip the refused PUT.",
                    metadata: ["path": "\(path)", "size": "\(content.size)"])
                isChunked = true
                digests = SentDigests(
                    sha256: try await writeChunked(
                        content, to: path, current: current, precondition: options.precondition,
                        modified: fingerprint.modified, progress: progress))
            }
        }
        guard var entry = try await entry(path), !entry.isCollection else {
            throw ServiceError(.conflict, "\(path) was removed by another writer just after the upload.")
        }
        try checkStored(entry, content: content, md5: digests.md5, path: path)
        if isChunked { try checkChecksum(entry, sha256: digests.sha256, path: path) }
        if configuration.keepsDeadProperties {
            guard let etag = entry.etag else {
                throw WebDAVErrorMapping.undecodable("PROPFIND of \(path)", "the file has no ETag")
            }
            let state = WebDAVState(sha256: digests.sha256, token: Self.newVersionToken(), etag: etag)
            let history =
                configuration.vendor == .nextcloud
                ? WebDAVProperties.history(
                    current?.history, adding: Self.nextcloudVersionName(entry), sha256: digests.sha256) : nil
            try await recordState(state, metadata: metadata, history: history, of: path)
            entry.state = state
            entry.history = history
            entry.metadata = try metadata.flatMap { $0.isEmpty ? nil : try WebDAVProperties.encode($0) }
        }
        progress.report(content.size)
        return file(path, from: entry)
    }

    /// The digests of what was sent.
    private struct SentDigests: Sendable {
        var sha256: String
        var md5: String? = nil
    }

    /// How to recognise a PUT that went through although its answer was lost: on Nextcloud,
    /// where sending it again would add a version, the file then has the modification time the
    /// PUT set, its size, and a new ETag.
    private struct WriteFingerprint: Sendable {
        var modified: Int64
        var size: Int64
        var previousETag: String?
    }

    /// PUT of the content, creating missing parents when the server refuses the PUT for them.
    private func put(
        _ content: UploadContent, to path: RemotePath, headers: [(String, String)], isConditional: Bool,
        fingerprint: WriteFingerprint?, progress: MonotonicProgress
    ) async throws -> SentDigests {
        if let fingerprint, !isConditional {
            return try await putLookingFirst(
                content, to: path, headers: headers, fingerprint: fingerprint, progress: progress)
        }
        let url = try url(for: path)
        let action = "PUT of \(path)"
        var fields = headers
        fields.append(("Content-Type", "application/octet-stream"))
        var request = transport.request(
            .put, url, headers: fields, body: content.body(0..<content.size), isIdempotent: !isConditional)
        request.requestDigests = configuration.etagIsMD5 ? [.sha256, .md5] : [.sha256]
        // Sending the same bytes again under the lock is harmless; a conditional header makes a
        // repeat of a PUT that went through fail, so then only a refusal is repeated.
        let repetition: Repetition = isConditional ? .onlyWhenRefused : .safe
        let response: StratusHTTPResponse
        do {
            response = try await transport.send(
                request, action: action, repetition: repetition, progress: progress.upload(from: 0))
        } catch let error as ServiceError
            where [400, 404, 409].contains(error.httpStatus ?? 0) && !path.parent.isRootOrNil
        {
            // Apache answers 409 for a missing parent and 400 below a file, rclone 404.
            try await ensureFolders(path.parent ?? .root)
            response = try await transport.send(
                request, action: action, repetition: repetition, progress: progress.upload(from: 0))
        } catch let error as ServiceError where error.httpStatus == 412 {
            throw ServiceError(
                .conflict, "\(path) changed before it could be written; nothing was written.", httpStatus: 412)
        }
        guard let sha256 = response.requestBodyDigests[.sha256] else {
            throw ServiceError(
                .internalError, "The upload of \(path) was not hashed as it was sent (a bug in Stratus).")
        }
        return SentDigests(sha256: sha256, md5: response.requestBodyDigests[.md5])
    }

    /// PUT in the "look first" loop: after a failure of unknown outcome, PROPFIND checks whether
    /// the PUT went through (see ``WriteFingerprint``) before it is sent again, and the digests
    /// are then read from the content.
    private func putLookingFirst(
        _ content: UploadContent, to path: RemotePath, headers: [(String, String)], fingerprint: WriteFingerprint,
        progress: MonotonicProgress
    ) async throws -> SentDigests {
        let url = try url(for: path)
        let action = "PUT of \(path)"
        var request = transport.request(
            .put, url, headers: headers + [("Content-Type", "application/octet-stream")],
            body: content.body(0..<content.size))
        request.requestDigests = [.sha256]
        let sent = request
        let digests: SentDigests = try await configuration.retryPolicy.runWrite(lookFirst: {
            guard let entry = try await self.entry(path), !entry.isCollection, entry.size == fingerprint.size,
                let modified = entry.modified, Int64(modified.timeIntervalSince1970) == fingerprint.modified,
                entry.etag != fingerprint.previousETag
            else { return nil }
            let digest = SHA256Digest()
            try content.read(0..<content.size) { _, bytes in digest.update(bytes) }
            return SentDigests(sha256: Hex.encode(digest.finalize()), md5: nil)
        }) { _ in
            let response: StratusHTTPResponse
            do {
                response = try await self.transport.send(
                    sent, action: action, repetition: .never, progress: progress.upload(from: 0))
            } catch let error as ServiceError
                where [404, 409].contains(error.httpStatus ?? 0) && !path.parent.isRootOrNil
            {
                try await self.ensureFolders(path.parent ?? .root)
                response = try await self.transport.send(
                    sent, action: action, repetition: .never, progress: progress.upload(from: 0))
            }
            guard let sha256 = response.requestBodyDigests[.sha256] else {
                throw ServiceError(
                    .internalError, "The upload of \(path) was not hashed as it was sent (a bug in Stratus).")
            }
            return SentDigests(sha256: sha256, md5: nil)
        }
        return digests
    }

    /// PROPPATCH of the state record and metadata, with each property's inner status checked.
    func recordState(_ state: WebDAVState, metadata: [String: String]?, history: String? = nil, of path: RemotePath)
        async throws
    {
        try await recordState(state, metadata: metadata, history: history, at: try url(for: path), label: path.string)
    }

    /// PROPPATCH of the state record and metadata on a resource, named `label` in errors.
    func recordState(
        _ state: WebDAVState, metadata: [String: String]?, history: String? = nil, at url: URL, label: String
    ) async throws {
        let action = "PROPPATCH of \(label)"
        let body = try WebDAVProperties.proppatchBody(state: state, metadata: metadata, history: history)
        let response = try await transport.send(
            transport.request(
                WebDAVTransport.proppatch, url,
                headers: [("Content-Type", "application/xml; charset=utf-8")], body: .bytes(body)),
            action: action, repetition: .safe
        )
        guard response.status == 207 else { return }
        guard let document = try? XMLTree.parse(response.body) else {
            throw WebDAVErrorMapping.undecodable(action, "the 207 answer is not XML")
        }
        for propstat in document.children("response").flatMap({ $0.children("propstat") }) {
            let status = propstat.value("status").flatMap(WebDAVEntry.statusCode) ?? 0
            guard !(200..<300).contains(status) else { continue }
            let names = propstat.child("prop")?.children.map(\.name) ?? []
            // Removing metadata that was never set is no failure.
            if status == 404, names.allSatisfy({ $0 == WebDAVProperties.metadataName }), metadata?.isEmpty ?? true {
                continue
            }
            let code: ServiceError.Code =
                status == 403 || status == 409 ? .unsupported : WebDAVErrorMapping.serviceCode(status: status)
            throw ServiceError(
                code,
                "\(action): the server refused the properties \(names.joined(separator: ", ")) with HTTP \(status); the content was written, its hash and metadata were not recorded.",
                httpStatus: status)
        }
    }

    /// A new version token: 16 random hex digits.
    static func newVersionToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return String(format: "%016llx", generator.next() as UInt64)
    }

    // MARK: Delete

    /// Deletes a file (DELETE) under the path's lock, after PROPFIND has checked the
    /// precondition. See ``/Stratus/Service/delete(_:precondition:)``.
    public func delete(_ path: RemotePath, precondition: WritePrecondition) async throws {
        try await guarded {
            try validateFile(path)
            try await withPathLock(path) {
                guard let current = try await entry(path), !current.isCollection else {
                    throw ServiceError(.notFound, "No file at \(path).")
                }
                try precondition.check(current: version(of: current), at: path, for: .delete)
                let request = transport.request(.delete, try url(for: path), isIdempotent: false)
                do {
                    // After a failure of unknown outcome, a file that is gone was deleted by
                    // this DELETE: the path's lock keeps other Stratus writers out.
                    try await configuration.retryPolicy.runWrite(lookFirst: {
                        try await self.entry(path) == nil ? () : nil
                    }) { _ in
                        _ = try await self.transport.send(request, action: "DELETE of \(path)", repetition: .never)
                    }
                } catch let error as ServiceError where error.code == .notFound {
                    throw precondition == .none
                        ? error
                        : ServiceError(
                            .conflict, "\(path) changed before it could be deleted.", httpStatus: error.httpStatus)
                }
            }
            await appendJournal(.deleted(path))
        }
    }
}

extension Optional where Wrapped == RemotePath {
    /// Whether there is no parent, or it is the root.
    fileprivate var isRootOrNil: Bool { self?.isRoot ?? true }
}
