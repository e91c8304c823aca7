import Foundation
import Hummingbird
import MockSupport
import StratusDigest

/// `files/upload` and the `upload_session/...` routes.
extension MockDropboxServer {
    /// Reads `CommitInfo` fields.
    /// - Throws: 400 for a malformed argument, ``LookupProblem/malformedPath``, 409
    ///   `properties_error` for property groups that do not fit their template.
    func commitRequest(_ arguments: DropboxArguments) throws -> CommitRequest {
        do { return try commitInfo(arguments) } catch let problem as PropertyTemplates.Problem {
            throw DropboxFailure.route(FilesError.wrap("properties_error", problem.union))
        }
    }

    /// Reads `CommitInfo` fields, throwing a refusal of its property groups as it is.
    /// - Throws: 400 for a malformed argument, ``LookupProblem/malformedPath``,
    ///   `PropertyTemplates.Problem`.
    func commitInfo(_ arguments: DropboxArguments) throws -> CommitRequest {
        let raw = try arguments.string("path")
        let path = try parsePath(raw, allowRoot: false, arguments: arguments)
        let modeUnion = try arguments.union("mode", default: "add")
        let mode: WriteMode
        switch modeUnion.tag {
        case "add": mode = .add
        case "overwrite": mode = .overwrite
        case "update":
            guard let rev = modeUnion.value["update"] as? String, rev.count >= 9,
                rev.allSatisfy({ $0.isHexDigit && !$0.isUppercase })
            else { throw arguments.fail("mode", "update: expected a rev") }
            mode = .update(rev)
        default: throw arguments.fail("mode", "unknown tag '\(modeUnion.tag)'")
        }
        var clientModified: Date?
        if let text = try arguments.optionalString("client_modified") {
            guard let date = DropboxTimestamp.parse(text) else {
                throw arguments.fail(
                    "client_modified", "time data '\(text)' does not match format '%Y-%m-%dT%H:%M:%SZ'")
            }
            clientModified = date
        }
        _ = try arguments.bool("mute", default: false)
        let groups = try templates.parse(arguments.object["property_groups"], arguments: arguments)
        return CommitRequest(
            path: path, mode: mode,
            autorename: try arguments.bool("autorename", default: false),
            clientModified: clientModified,
            strictConflict: try arguments.bool("strict_conflict", default: false),
            propertyGroups: groups
        )
    }

    /// The optional `content_hash` argument, checked for shape.
    func expectedHash(_ arguments: DropboxArguments) throws -> String? {
        guard let hash = try arguments.optionalString("content_hash") else { return nil }
        guard hash.count == 64 else { throw arguments.fail("content_hash", "'\(hash)' must be 64 characters") }
        return hash.lowercased()
    }

    func upload(_ request: inout Request) async throws -> Response {
        let route = "files/upload"
        try authorize(request, scope: "files.content.write")
        let arguments = try headerArguments(request, route: route)
        let commit: CommitRequest
        do { commit = try commitRequest(arguments) } catch LookupProblem.malformedPath {
            throw DropboxFailure.route(FilesError.uploadPath(WriteProblem.malformedPath.union, sessionID: ""))
        }
        let expected = try expectedHash(arguments)
        guard let blob = try await blobs.ingest(request.body, limit: options.maxUploadBytes) else {
            throw DropboxFailure.route(FilesError.tag("payload_too_large"))
        }
        if let expected, expected != blob.contentHash {
            throw DropboxFailure.route(FilesError.tag("content_hash_mismatch"))
        }
        do {
            let (node, revision) = try await writes.commit {
                try namespace.withState { try $0.commit(commit, blob: blob) }
            }
            return Self.ok(node.metadata(of: revision))
        } catch let problem as WriteProblem {
            let sessionID = sessions.adopt(blob: blobs.url(ofBlob: blob.sha256), size: blob.size)
            throw DropboxFailure.route(FilesError.uploadPath(problem.union, sessionID: sessionID))
        }
    }

    func uploadSessionStart(_ request: inout Request) async throws -> Response {
        try authorize(request, scope: "files.content.write")
        let arguments = try headerArguments(request, route: "files/upload_session/start")
        let close = try arguments.bool("close", default: false)
        let sessionType = try arguments.union("session_type", default: "sequential").tag
        guard sessionType == "sequential" else {
            throw arguments.fail("session_type", "only sequential sessions are mocked")
        }
        let expected = try expectedHash(arguments)
        let (id, file) = try sessions.start()
        let added: Int64
        do {
            added = try await appendBody(request, to: file, session: id, expected: expected)
        } catch {
            sessions.finish(id)
            throw (error as? AppendRefusal)?.failure ?? error
        }
        sessions.release(id, added: added, close: close)
        return Self.ok(["session_id": id])
    }

    /// What an append did to its session.
    private struct Appended {
        /// The session.
        var id: String
        /// The offset the cursor named.
        var offset: Int64
        /// How many bytes were appended.
        var added: Int64
        /// Whether the session was closed before.
        var wasClosed: Bool
    }

    /// Appends a request body to a session named by a `cursor` argument.
    /// - Returns: The session and what was appended, or throws the session's
    ///   `UploadSessionLookupError`.
    @discardableResult
    private func append(
        _ request: Request, cursor: DropboxArguments, close: Bool, expected: String?, finishing: Bool = false,
        lookupFailed: (UploadSessions.Problem) -> DropboxFailure
    ) async throws -> Appended {
        let id = try cursor.string("session_id")
        guard let offset = try cursor.integer("offset", default: nil, range: 0...Int64.max) else {
            throw cursor.fail("offset", "missing required field")
        }
        let claim: (file: URL, wasClosed: Bool)
        do { claim = try sessions.claim(id, offset: offset, finishing: finishing) } catch { throw lookupFailed(error) }
        let file = claim.file
        if claim.wasClosed {
            // A closed session's file may be a hard link to a blob: never write to it.
            var hasData = false
            for try await buffer in request.body where buffer.readableBytes > 0 {
                hasData = true
                break
            }
            sessions.release(id, added: 0, close: true)
            if hasData { throw lookupFailed(.closed) }
            return Appended(id: id, offset: offset, added: 0, wasClosed: true)
        }
        let added: Int64
        do {
            added = try await appendBody(request, to: file, session: id, expected: expected)
        } catch {
            // Take the bytes back out (a refused hash, or a body that broke off part-way), so a
            // retry at the same offset appends where the session stands.
            if let handle = try? FileHandle(forWritingTo: file) {
                try? handle.truncate(atOffset: UInt64(offset))
                try? handle.close()
            }
            // Part of the body may have reached the session's digests.
            sessions.dropDigests(id)
            sessions.release(id, added: 0, close: false)
            throw (error as? AppendRefusal)?.failure ?? error
        }
        sessions.release(id, added: added, close: close)
        return Appended(id: id, offset: offset, added: added, wasClosed: false)
    }

    /// Appends a request body to a session's file. The bytes feed the session's digests, so
    /// finishing need not read the file again, and, when the request names a content hash,
    /// a content hash of their own to check against it.
    /// - Returns: How many bytes were appended.
    /// - Throws: ``AppendRefusal`` past the upload limit, or when the bytes do not have the
    ///   expected hash (they are then in the file, past its offset, and in the digests).
    private func appendBody(_ request: Request, to file: URL, session id: String, expected: String?) async throws
        -> Int64
    {
        let digests = sessions.digests(ofClaimed: id)
        let chunkHash = expected == nil ? nil : DropboxContentHash()
        let count = try await BlobStore.append(request.body, to: file, limit: options.maxUploadBytes) { bytes in
            digests?.update(bytes)
            chunkHash?.update(bytes)
        }
        guard let count else { throw AppendRefusal.payloadTooLarge }
        if let expected, expected != chunkHash?.finalizeHex() { throw AppendRefusal.contentHashMismatch }
        return count
    }

    func uploadSessionAppend(_ request: inout Request) async throws -> Response {
        try authorize(request, scope: "files.content.write")
        let arguments = try headerArguments(request, route: "files/upload_session/append_v2")
        let cursor = try arguments.nested("cursor")
        let close = try arguments.bool("close", default: false)
        let expected = try expectedHash(arguments)
        try await append(request, cursor: cursor, close: close, expected: expected) { problem in
            DropboxFailure.route(problem.union)
        }
        return .json(text: "null")
    }

    func uploadSessionFinish(_ request: inout Request) async throws -> Response {
        try authorize(request, scope: "files.content.write")
        let arguments = try headerArguments(request, route: "files/upload_session/finish")
        let cursor = try arguments.nested("cursor")
        let commitArguments = try arguments.nested("commit")
        let commit: CommitRequest
        do { commit = try commitRequest(commitArguments) } catch LookupProblem.malformedPath {
            throw DropboxFailure.route(FilesError.wrap("path", WriteProblem.malformedPath.union))
        }
        let expected = try expectedHash(arguments)
        let appended = try await append(
            request, cursor: cursor, close: true, expected: expected, finishing: true
        ) { problem in
            DropboxFailure.route(FilesError.wrap("lookup_failed", problem.union))
        }
        do {
            let (node, revision) = try await writes.commit { try commitClosedSession(appended.id, as: commit) }
            return Self.ok(node.metadata(of: revision))
        } catch let failure as DropboxFailure where failure.isRateLimit {
            // Refused before it ran: the request leaves no trace, so the same one can be sent again.
            sessions.undoFinish(
                appended.id, offset: appended.offset, added: appended.added, wasClosed: appended.wasClosed)
            throw failure
        } catch let problem as FinishProblem {
            throw DropboxFailure.route(problem.union)
        }
    }

    /// Commits a closed session's bytes as a file: what `upload_session/finish` does after its
    /// append, and what each entry of a batch commit does. The caller holds the write slot.
    /// - Returns: The node and its new current revision.
    /// - Throws: ``FinishProblem`` when the session is gone or the write fails; an I/O error.
    func commitClosedSession(_ id: String, as commit: CommitRequest) throws -> (NamespaceNode, FileRevision) {
        guard let file = sessions.file(ofClosed: id) else { throw FinishProblem.lookup(.notFound) }
        // Linked, not moved: if the commit conflicts, the closed session stays for a retry. The
        // digests its appends fed describe the file; only when they missed bytes is it read again.
        let content = try sessions.content(ofClosed: id) ?? BlobStore.hash(fileAt: file)
        let blob = try blobs.commit(file, info: content, keepSource: true)
        do {
            let committed = try namespace.withState { try $0.commit(commit, blob: blob) }
            sessions.finish(id)
            return committed
        } catch let problem as WriteProblem {
            throw FinishProblem.write(problem)
        }
    }
}

/// Why committing a session failed, as an `UploadSessionFinishError`.
enum FinishProblem: Error {
    /// `lookup_failed` with an `UploadSessionLookupError`.
    case lookup(UploadSessions.Problem)
    /// `path` with a `WriteError`.
    case write(WriteProblem)
    /// `properties_error` with an `InvalidPropertyGroupError`.
    case properties(PropertyTemplates.Problem)
    /// `content_hash_mismatch`.
    case contentHashMismatch
    /// `other`: the mock could not read or store the session's bytes.
    case other

    /// The `UploadSessionFinishError` union.
    var union: [String: Any] {
        switch self {
        case .lookup(let problem): FilesError.wrap("lookup_failed", problem.union)
        case .write(let problem): FilesError.wrap("path", problem.union)
        case .properties(let problem): FilesError.wrap("properties_error", problem.union)
        case .contentHashMismatch: FilesError.tag("content_hash_mismatch")
        case .other: FilesError.tag("other")
        }
    }
}

/// Why an upload session refused a request's bytes.
private enum AppendRefusal: Error {
    case payloadTooLarge
    case contentHashMismatch

    /// The route error Dropbox answers with.
    var failure: DropboxFailure {
        .route(FilesError.tag(self == .payloadTooLarge ? "payload_too_large" : "content_hash_mismatch"))
    }
}
