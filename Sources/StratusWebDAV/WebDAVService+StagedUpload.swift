import Foundation
import Stratus
import StratusAdapterKit
import StratusHTTP

/// Uploads to generic servers through a temporary resource: PUT to `.stratus/uploads/<name>`,
/// PROPPATCH of the state record there, then MOVE onto the target.
///
/// rclone and WsgiDAV write a PUT body in place, so a PUT straight to the target that is cut
/// short leaves a partial file there. The MOVE replaces the target in one step once the content
/// is whole; Apache and WsgiDAV move the dead properties with it (rclone keeps none), so a reader
/// sees the old file, no file for the moment the server deletes the old one (RFC 4918 9.9.3), or
/// the new file: never a partial one. A reader that meets the new content before its properties
/// (Apache moves them after the rename) sees no state record, or one whose ETag is not the
/// file's, which ``trustedState(_:)`` ignores.
extension WebDAVService {
    /// The reserved folder of temporary uploads.
    static let uploadsFolder = "uploads"

    /// How old a temporary upload must be before an instance that starts deletes it as left
    /// behind by a writer that died.
    static let abandonedUploadAge: TimeInterval = 24 * 3600

    /// What a staged write produced: the target's entry and the state recorded for it.
    struct StagedWrite: Sendable {
        var entry: WebDAVEntry
        var state: WebDAVState?
    }

    /// Writes content through a temporary resource and moves it onto the path (under the
    /// path's lock). When anything fails or the task is cancelled, the temporary resource is
    /// deleted, best effort, before the error is thrown.
    /// - Parameters:
    ///   - content: The content.
    ///   - path: The target.
    ///   - current: The target's entry before the write (the precondition was checked on it).
    ///   - precondition: The precondition; without locks, `mustNotExist` is sent with the MOVE
    ///     as `Overwrite: F`.
    ///   - metadata: The custom metadata to record.
    ///   - progress: The upload's progress.
    func writeStaged(
        _ content: UploadContent, to path: RemotePath, current: WebDAVEntry?, precondition: WritePrecondition,
        metadata: [String: String]?, progress: MonotonicProgress
    ) async throws -> StagedWrite {
        try await ensureUploadsFolder()
        let stagingURL = try transport.url(for: [Self.reservedFolder, Self.uploadsFolder, Self.newStagingName()])
        do {
            return try await stageAndMove(
                content, at: stagingURL, to: path, current: current, precondition: precondition, metadata: metadata,
                progress: progress)
        } catch {
            await discardStaging(stagingURL)
            throw error
        }
    }

    private func stageAndMove(
        _ content: UploadContent, at stagingURL: URL, to path: RemotePath, current: WebDAVEntry?,
        precondition: WritePrecondition, metadata: [String: String]?, progress: MonotonicProgress
    ) async throws -> StagedWrite {
        let label = "the temporary upload of \(path)"
        var request = transport.request(
            .put, stagingURL, headers: [("Content-Type", "application/octet-stream")],
            body: content.body(0..<content.size))
        request.requestDigests = configuration.etagIsMD5 ? [.sha256, .md5] : [.sha256]
        let response: StratusHTTPResponse
        do {
            // A temporary resource of this writer alone: sending the same bytes again is harmless.
            response = try await transport.send(
                request, action: "PUT of \(label)", repetition: .safe, progress: progress.upload(from: 0))
        } catch let error as ServiceError where error.httpStatus == 409 || error.httpStatus == 404 {
            // The uploads folder went away (someone deleted .stratus): make it again.
            knownFolders.withLock { $0.removeAll() }
            try await ensureUploadsFolder()
            response = try await transport.send(
                request, action: "PUT of \(label)", repetition: .safe, progress: progress.upload(from: 0))
        }
        guard let sha256 = response.requestBodyDigests[.sha256] else {
            throw ServiceError(
                .internalError, "The upload of \(path) was not hashed as it was sent (a bug in Stratus).")
        }
        guard let staged = try await transport.propfind(stagingURL, depth: 0, action: "PROPFIND of \(label)")?.first
        else {
            throw ServiceError(.conflict, "\(label) vanished before it could be moved into place.")
        }
        try checkStored(staged, content: content, md5: response.requestBodyDigests[.md5], path: path)
        var state: WebDAVState?
        if configuration.keepsDeadProperties {
            guard let etag = staged.etag else {
                throw WebDAVErrorMapping.undecodable("PROPFIND of \(label)", "the file has no ETag")
            }
            let recorded = WebDAVState(sha256: sha256, token: Self.newVersionToken(), etag: etag)
            // Recorded before the MOVE, so the properties arrive with the content.
            try await recordState(recorded, metadata: metadata, at: stagingURL, label: label)
            state = recorded
        }
        if current == nil, let parent = path.parent, !parent.isRoot {
            // A new file: make its parent folders first (Apache answers a MOVE to a missing
            // parent with 500, which says nothing certain).
            let folder = try await transport.propfind(
                try url(for: parent), depth: 0, action: "PROPFIND of \(parent)")?.first
            if folder?.isCollection != true { try await ensureFolders(parent) }
        }
        try await move(stagingURL, to: path, staged: staged, precondition: precondition)
        guard var entry = try await entry(path), !entry.isCollection else {
            throw ServiceError(.conflict, "\(path) was removed by another writer just after the upload.")
        }
        try checkStored(entry, content: content, md5: response.requestBodyDigests[.md5], path: path)
        if var recorded = state, trustedState(entry)?.token != recorded.token {
            // The server changed the ETag on the MOVE or did not move the properties: record
            // the state on the target, for the ETag it has now.
            guard let etag = entry.etag else {
                throw WebDAVErrorMapping.undecodable("PROPFIND of \(path)", "the file has no ETag")
            }
            recorded.etag = etag
            try await recordState(recorded, metadata: metadata, of: path)
            state = recorded
        }
        entry.state = state
        if configuration.keepsDeadProperties {
            entry.metadata = try metadata.flatMap { $0.isEmpty ? nil : try WebDAVProperties.encode($0) }
        }
        return StagedWrite(entry: entry, state: state)
    }

    /// Checks that an entry holds what was sent: its size, and its MD5 where the ETag is one.
    func checkStored(_ entry: WebDAVEntry, content: UploadContent, md5: String?, path: RemotePath) throws {
        guard entry.size == content.size else {
            throw ServiceError(
                .integrityMismatch,
                "The server describes \(path) as \(entry.size ?? -1) bytes after an upload of \(content.size) bytes.")
        }
        if configuration.etagIsMD5, let md5, let etag = entry.etag, etag.count == 32, etag.lowercased() != md5 {
            throw ServiceError(
                .integrityMismatch, "The server stored \(path) with MD5 \(etag), not the \(md5) that was sent.")
        }
    }

    /// MOVE of the temporary resource onto the path, making missing parent folders when the
    /// server refuses the MOVE for them. After a failure of unknown outcome, PROPFIND looks for
    /// the move (the temporary resource gone, the target with its ETag and size) before the
    /// MOVE is sent again.
    private func move(
        _ stagingURL: URL, to path: RemotePath, staged: WebDAVEntry, precondition: WritePrecondition
    ) async throws {
        let target = try url(for: path)
        // Without locks, `Overwrite: F` makes the server refuse the MOVE (412) onto a file that
        // appeared since the check. A tagged `If` header with the target's ETag is no help for
        // mustMatch: rclone refuses it whatever the ETag and WsgiDAV ignores it (measured).
        let overwrite = !configuration.usesLocks && precondition == .mustNotExist ? "F" : "T"
        let headers = [("Destination", target.absoluteString), ("Overwrite", overwrite)]
        let request = transport.request(WebDAVTransport.move, stagingURL, headers: headers, isIdempotent: false)
        let action = "MOVE of the temporary upload onto \(path)"
        let transport = self.transport
        let lookFirst: @Sendable () async throws -> Void? = {
            guard try await transport.propfind(stagingURL, depth: 0, action: "PROPFIND of a temporary upload") == nil,
                let entry = try await self.entry(path), !entry.isCollection, entry.size == staged.size,
                entry.etag == staged.etag
            else { return nil }
            return ()
        }
        let send: @Sendable () async throws -> Void = {
            try await self.configuration.retryPolicy.runWrite(lookFirst: lookFirst) { _ in
                _ = try await transport.send(request, action: action, repetition: .never)
            }
        }
        do {
            try await send()
        } catch let error as ServiceError
            where [403, 404, 409].contains(error.httpStatus ?? 0) && !(path.parent?.isRoot ?? true)
        {
            // A parent folder removed meanwhile: WsgiDAV answers 409, rclone 403 or 404.
            try await ensureFolders(path.parent ?? .root)
            try await send()
        } catch let error as ServiceError where error.httpStatus == 412 {
            throw ServiceError(
                .conflict, "\(path) changed before it could be written; nothing was written.", httpStatus: 412)
        }
    }

    /// Whether a MOVE can name the path in its `Destination`. WsgiDAV decodes the header before
    /// it splits it into path, parameters and query, so a name with `;` or `?` would make it
    /// move the upload onto another file (the name cut short there) or fail (measured with
    /// WsgiDAV 4.4): such paths get a PUT straight to the target, as before.
    static func canMove(to path: RemotePath) -> Bool {
        !path.components.contains { $0.contains(";") || $0.contains("?") }
    }

    /// A temporary upload's name: the time it was made (seconds since 1970) and 16 random hex
    /// digits, so abandoned ones can be told by age.
    static func newStagingName() -> String {
        "\(Int64(Date().timeIntervalSince1970))-\(newVersionToken()).upload"
    }

    /// The time a temporary upload's name says it was made.
    static func stagingTime(_ name: String) -> Date? {
        guard name.hasSuffix(".upload"), let seconds = name.split(separator: "-").first.flatMap({ Int64($0) }) else {
            return nil
        }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// Makes `.stratus/uploads/` once per instance and then deletes the temporary uploads in it
    /// that are older than ``abandonedUploadAge`` (left by writers that died between PUT and
    /// MOVE). The sweep is part of the first write and best effort: a failure is logged, and a
    /// sweep cut short (the write cancelled) leaves the rest to the next instance.
    private func ensureUploadsFolder() async throws {
        let key = Self.reservedFolder + "/" + Self.uploadsFolder
        let isNew = !knownFolders.withLock { $0.contains(key) }
        try await ensureReservedFolder(Self.uploadsFolder)
        guard isNew else { return }
        do {
            try await sweepAbandonedUploads()
        } catch {
            logger.debug("Abandoned uploads were not swept", metadata: ["error": "\(error)"])
        }
    }

    /// Deletes the temporary uploads older than ``abandonedUploadAge``; one that cannot be
    /// deleted is left for a later sweep.
    private func sweepAbandonedUploads() async throws {
        let folder = try transport.url(for: [Self.reservedFolder, Self.uploadsFolder], isFolder: true)
        let entries = try await transport.propfind(folder, depth: 1, action: "PROPFIND of the uploads") ?? []
        let cutoff = Date().addingTimeInterval(-Self.abandonedUploadAge)
        for entry in entries where !entry.isCollection {
            try Task.checkCancellation()
            let encoded = entry.href.split(separator: "/").last.map(String.init) ?? ""
            let name = encoded.removingPercentEncoding ?? encoded
            guard let made = Self.stagingTime(name), made < cutoff else { continue }
            let url = try transport.url(for: [Self.reservedFolder, Self.uploadsFolder, name])
            _ = try? await transport.send(
                transport.request(.delete, url), action: "DELETE of an abandoned upload", repetition: .safe)
        }
    }

    /// Deletes a temporary upload, best effort, and returns once that is done (see
    /// ``discard(_:label:)``); one left behind is swept later by age.
    private func discardStaging(_ url: URL) async {
        await discard(url, label: "a temporary upload")
    }

    /// Deletes an upload's resource (a temporary upload, a chunked upload's folder), best effort,
    /// and returns once that is done. It runs in a task of its own, awaited, so that it is sent
    /// even when the write was cancelled.
    /// - Parameters:
    ///   - url: The resource.
    ///   - label: What it is, for the log.
    func discard(_ url: URL, label: String) async {
        let request = transport.request(.delete, url)
        let transport = self.transport
        let logger = self.logger
        await Task {
            do {
                _ = try await transport.send(request, action: "DELETE of \(label)", repetition: .safe)
            } catch let error as ServiceError where error.code == .notFound {
                // Moved into place already, or never made.
            } catch {
                logger.debug(
                    "An upload's resource was not deleted", metadata: ["resource": "\(label)", "error": "\(error)"])
            }
        }.value
    }
}
