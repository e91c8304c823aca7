import Foundation
public import Stratus
import StratusAdapterKit
import StratusDigest
import StratusHTTP

/// Uploads: one `files/upload` request up to the single-upload limit, an upload session
/// (`start` → `append_v2` … → `finish`) above it.
extension DropboxService {
    /// Writes content to a path. See ``/Stratus/Service/upload(from:to:options:)``.
    ///
    /// Preconditions: `.none` is mode `overwrite`; `.mustNotExist` is mode `add` without
    /// autorename; `.mustMatch(rev)` is mode `update` with `strict_conflict`.
    ///
    /// Custom metadata travels as a property group on the commit (see
    /// `DropboxCustomMetadata`; the template is created on first use). A revision carries
    /// the groups its commit carried, so metadata `nil` reads the file's current metadata
    /// first and sends it again; a writer that changes the metadata between that read and
    /// this commit loses its change.
    public func upload(from source: UploadSource, to path: RemotePath, options: UploadOptions) async throws
        -> RemoteFile
    {
        try await guarded {
            guard !path.isRoot else {
                throw ServiceError(.invalidPath, "Cannot upload to the root folder; give a file name.")
            }
            try paths.validate(path)
            // With batch commits, commits that arrive first wait for this upload's, briefly.
            var announced: AnnouncedUpload?
            if let batches { announced = await AnnouncedUpload.begin(with: batches) }
            do {
                return try await upload(source, to: path, options: options, batch: announced)
            } catch {
                await announced?.abandon()
                throw error
            }
        }
    }

    /// ``upload(from:to:options:)`` once the path is checked, committing with `batch` when
    /// given.
    private func upload(_ source: UploadSource, to path: RemotePath, options: UploadOptions, batch: AnnouncedUpload?)
        async throws -> RemoteFile
    {
        var current: RemoteFile?
        if case .mustMatch = options.precondition {
            // Dropbox's mode update writes a new file when none is there, so the current file
            // is checked first (a file deleted between this check and the upload is the one
            // case that is not caught); a file changed since is refused by strict_conflict.
            current = try await metadataIfPresent(of: path)
            try options.precondition.check(current: current?.version, at: path)
        }
        let content = try UploadContent(source)
        let progress = MonotonicProgress(options.progress, total: content.size)
        var commit = commitInfo(for: path, precondition: options.precondition)
        let metadata = try await metadataToWrite(options.metadata, path: path, current: current)
        if !metadata.isEmpty {
            let template = try await templates.writeID()
            commit.append(
                ("property_groups", try DropboxCustomMetadata.propertyGroups(metadata, templateID: template)))
        }
        let file: RemoteFile
        let expected: String
        if content.size <= configuration.singleUploadLimit, let batch {
            (file, expected) = try await uploadForBatch(
                content, commit: commit, path: path, progress: progress, batch: batch)
        } else if content.size <= configuration.singleUploadLimit {
            (file, expected) = try await uploadInOneRequest(content, commit: commit, path: path, progress: progress)
        } else {
            (file, expected) = try await uploadInSession(
                content, commit: commit, path: path, progress: progress, batch: batch)
        }
        if let reported = file.contentHash?.value, reported != expected {
            throw ServiceError(
                .integrityMismatch,
                "Dropbox reports content_hash \(reported) for \(path) after the upload, but the content sent hashes to \(expected); upload it again."
            )
        }
        progress.report(content.size)
        var written = file
        written.metadata = metadata
        return written
    }

    /// The metadata the new revision carries: the caller's, or with `nil` the file's current
    /// metadata (none when there is no file, or the account has no metadata template yet).
    private func metadataToWrite(_ requested: [String: String]?, path: RemotePath, current: RemoteFile?) async throws
        -> [String: String]
    {
        if let requested { return requested }
        if let current { return current.metadata }
        guard !(try await templates.readIDs()).isEmpty else { return [:] }
        return try await metadataIfPresent(of: path)?.metadata ?? [:]
    }

    /// The `CommitInfo` members for a path and precondition.
    func commitInfo(for path: RemotePath, precondition: WritePrecondition) -> [(String, StoneValue)] {
        let mode: StoneValue
        var strict = false
        switch precondition {
        case .none: mode = .string("overwrite")
        case .mustNotExist: mode = .string("add")
        case .mustMatch(let version):
            mode = .union("update", .string(version.rawValue))
            strict = true
        }
        return [
            ("path", .string(paths.dropboxPath(path))),
            ("mode", mode),
            ("autorename", .bool(false)),
            ("mute", .bool(true)),
            ("strict_conflict", .bool(strict)),
        ]
    }

    /// One `files/upload` request with the content's hash computed beforehand in one streaming
    /// pass.
    private func uploadInOneRequest(
        _ content: UploadContent,
        commit: [(String, StoneValue)],
        path: RemotePath,
        progress: MonotonicProgress
    ) async throws -> (RemoteFile, String) {
        let route = "files/upload"
        let hash = try content.contentHash(0..<content.size)
        let written = try await writeOnce(done: { try await self.holds(path, contentHash: hash) }) {
            let response = try await transport.send(
                route: route,
                host: .content,
                headerArgument: .object(commit + [("content_hash", .string(hash))]),
                uploadBody: content.body(0..<content.size),
                repetition: .never,
                progress: progress.upload(from: 0)
            )
            try await transport.check(response, route: route)
            let entry = try DropboxTransport.decode(DropboxMetadata.self, from: response.body, route: route)
            return try paths.file(from: entry, route: route, requested: path)
        }
        return (written, hash)
    }

    /// One `upload_session/start` request that sends the whole content and closes the session,
    /// then the commit with the next batch.
    private func uploadForBatch(
        _ content: UploadContent,
        commit: [(String, StoneValue)],
        path: RemotePath,
        progress: MonotonicProgress,
        batch: AnnouncedUpload
    ) async throws -> (RemoteFile, String) {
        let route = "files/upload_session/start"
        let hash = try content.contentHash(0..<content.size)
        // Safe to repeat: a repeated start only leaves an unused session behind.
        let session = try await transport.safeUpload(
            route,
            headerArgument: .object([("close", .bool(true)), ("content_hash", .string(hash))]),
            body: content.body(0..<content.size),
            as: DropboxSessionStartResult.self,
            progress: progress.upload(from: 0)
        ).sessionID
        let entry = BatchEntry(sessionID: session, size: content.size, commit: commit, path: path, contentHash: hash)
        return (try await batch.commit(entry), hash)
    }

    /// An upload session of `chunkSize` pieces, each request carrying the hash of its own
    /// bytes; an `incorrect_offset` answer resumes from Dropbox's `correct_offset`. With batch
    /// commits the session is closed and committed with the next batch; otherwise `finish`
    /// commits it.
    private func uploadInSession(
        _ content: UploadContent,
        commit: [(String, StoneValue)],
        path: RemotePath,
        progress: MonotonicProgress,
        batch: AnnouncedUpload?
    ) async throws -> (RemoteFile, String) {
        let whole = WholeContentHash()
        let size = content.size
        let chunk = configuration.chunkSize

        // Start with the first chunk. Repeating a start only leaves an unused session behind.
        let firstEnd = min(chunk, size)
        let startHash = try whole.hash(content, 0..<firstEnd)
        let session = try await transport.safeUpload(
            "files/upload_session/start",
            headerArgument: .object([("close", .bool(false)), ("content_hash", .string(startHash))]),
            body: content.body(0..<firstEnd),
            as: DropboxSessionStartResult.self,
            progress: progress.upload(from: 0)
        ).sessionID

        var offset = firstEnd
        var resumes = 0
        while true {
            try Task.checkCancellation()
            if offset < size {
                let end = min(offset + chunk, size)
                let route = "files/upload_session/append_v2"
                let hash = try whole.hash(content, offset..<end)
                // Safe to repeat: a repeated append is refused with incorrect_offset.
                let response = try await transport.send(
                    route: route,
                    host: .content,
                    headerArgument: .object([
                        ("cursor", cursor(session, offset)),
                        ("close", .bool(false)),
                        ("content_hash", .string(hash)),
                    ]),
                    uploadBody: content.body(offset..<end),
                    repetition: .safe,
                    progress: progress.upload(from: offset)
                )
                if let correct = try await correctOffset(response, route: route, size: size) {
                    resumes += 1
                    guard resumes <= 8 else { throw tooManyResumes(route) }
                    offset = correct
                } else {
                    offset = end
                }
                continue
            }
            let emptyHash = DropboxContentHash().finalizeHex()
            let expected = try whole.finish(content)
            if let batch {
                if let correct = try await close(session, size: size, emptyHash: emptyHash) {
                    resumes += 1
                    guard resumes <= 8 else { throw tooManyResumes("files/upload_session/append_v2") }
                    offset = correct
                    continue
                }
                let entry = BatchEntry(
                    sessionID: session, size: size, commit: commit, path: path, contentHash: expected)
                return (try await batch.commit(entry), expected)
            }
            let route = "files/upload_session/finish"
            let outcome: SessionFinish = try await writeOnce(done: {
                try await self.holds(path, contentHash: expected).map { .committed($0) }
            }) {
                let response = try await transport.send(
                    route: route,
                    host: .content,
                    headerArgument: .object([
                        ("cursor", cursor(session, size)),
                        ("commit", .object(commit)),
                        ("content_hash", .string(emptyHash)),
                    ]),
                    uploadBody: .empty,
                    repetition: .never
                )
                if let correct = try await correctOffset(response, route: route, size: size) {
                    return .resume(from: correct)
                }
                let entry = try DropboxTransport.decode(DropboxMetadata.self, from: response.body, route: route)
                return .committed(try paths.file(from: entry, route: route, requested: path))
            }
            switch outcome {
            case .committed(let file):
                return (file, expected)
            case .resume(let correct):
                resumes += 1
                guard resumes <= 8 else { throw tooManyResumes(route) }
                offset = correct
            }
        }
    }

    /// Closes a session whose bytes are all sent, for a batch commit, with an empty
    /// `append_v2`.
    /// - Returns: The offset to resume from when Dropbox lacks bytes (`incorrect_offset`), or
    ///   `nil` once the session is closed (also when a repeated close finds it closed already).
    private func close(_ session: String, size: Int64, emptyHash: String) async throws -> Int64? {
        let route = "files/upload_session/append_v2"
        let response = try await transport.send(
            route: route,
            host: .content,
            headerArgument: .object([
                ("cursor", cursor(session, size)), ("close", .bool(true)), ("content_hash", .string(emptyHash)),
            ]),
            uploadBody: .empty,
            repetition: .safe
        )
        if response.status == 409, let error = StoneErrorBody.parse(response.body), error.tags == ["closed"] {
            return nil
        }
        return try await correctOffset(response, route: route, size: size)
    }

    /// What a session's `finish` request came to.
    private enum SessionFinish: Sendable {
        case committed(RemoteFile)
        case resume(from: Int64)
    }

    private func cursor(_ session: String, _ offset: Int64) -> StoneValue {
        .object([("session_id", .string(session)), ("offset", .integer(offset))])
    }

    /// The offset to resume from when an answer is `incorrect_offset`; `nil` for success; the
    /// mapped error otherwise.
    private func correctOffset(_ response: StratusHTTPResponse, route: String, size: Int64) async throws -> Int64? {
        guard !response.isSuccess else { return nil }
        if response.status == 409, let error = StoneErrorBody.parse(response.body), error.contains("incorrect_offset") {
            guard let correct = error.correctOffset, (0...size).contains(correct) else {
                throw DropboxErrorMapping.undecodable(route: route, "incorrect_offset without a usable correct_offset")
            }
            return correct
        }
        try await transport.check(response, route: route)
        return nil
    }

    private func tooManyResumes(_ route: String) -> ServiceError {
        ServiceError(
            .server, "Dropbox kept answering incorrect_offset (\(route)); the upload was abandoned, try again.")
    }
}

/// The `content_hash` of the whole content, built from the ranges hashed for each request.
///
/// Bytes are fed in order exactly once: when a resume goes back to an earlier offset, bytes
/// already fed are skipped.
final class WholeContentHash {
    private let digest = DropboxContentHash()
    private var fed: Int64 = 0

    /// Hashes a range for its request and feeds its new bytes into the whole.
    func hash(_ content: UploadContent, _ range: Range<Int64>) throws -> String {
        let part = DropboxContentHash()
        let fedBefore = fed
        var fedNow = fed
        try content.read(range) { offset, bytes in
            part.update(bytes)
            let end = offset + Int64(bytes.count)
            guard end > fedBefore, offset <= fedNow else { return }
            let skip = Int(max(0, fedNow - offset))
            digest.update(UnsafeRawBufferPointer(rebasing: bytes[skip...]))
            fedNow = end
        }
        fed = fedNow
        return Hex.encode(part.finalize())
    }

    /// The whole hash, after feeding any bytes not yet fed.
    func finish(_ content: UploadContent) throws -> String {
        if fed < content.size {
            _ = try hash(content, fed..<content.size)
        }
        return Hex.encode(digest.finalize())
    }
}
