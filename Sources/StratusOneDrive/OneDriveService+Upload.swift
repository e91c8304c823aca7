import Foundation
public import Stratus
import StratusAdapterKit
import StratusDigest
import StratusHTTP

/// Uploads: one `PUT .../content` up to the simple-upload limit, an upload session above it.
extension OneDriveService {
    /// How a write states its precondition to Graph.
    struct WriteCondition: Sendable {
        /// `@microsoft.graph.conflictBehavior`: `replace`, or `fail` when the name must be free.
        var conflictBehavior: String
        /// `If-Match` (the item's cTag) or `If-None-Match` (`*`).
        var headers: [(String, String)]
        /// The item replaced, if one was there when the write was prepared.
        var replaced: OneDriveItem?
    }

    /// Writes content to a path. See ``/Stratus/Service/upload(from:to:options:)``.
    ///
    /// Custom metadata is not supported (`options.metadata` other than `nil` or `[:]` is
    /// refused with `unsupported`).
    public func upload(from source: UploadSource, to path: RemotePath, options: UploadOptions) async throws
        -> RemoteFile
    {
        try await guarded {
            guard path.parent != nil else {
                throw ServiceError(.invalidPath, "Cannot upload to the root folder; give a file name.")
            }
            try OneDriveService.pathRules.validate(path)
            if let metadata = options.metadata, !metadata.isEmpty {
                throw ServiceError(
                    .unsupported, "OneDrive keeps no custom metadata for files; nothing was written to \(path).")
            }
            let content = try UploadContent(source)
            guard let hash = try content.hexDigests([.quickXorHash])[.quickXorHash] else {
                throw ServiceError(.localFile, "The content to upload could not be hashed.")
            }
            let progress = MonotonicProgress(options.progress, total: content.size)
            var attempt = 1
            while true {
                let condition = try await prepare(options.precondition, at: path)
                do {
                    let item = try await write(content, hash: hash, to: path, condition: condition, progress: progress)
                    let file = try await remoteFile(item, at: path)
                    progress.report(content.size)
                    await saveStateAfterWrite()
                    return file
                } catch let error as ServiceError where error.httpStatus == 412 && attempt == 1 {
                    // Graph can answer 412 while the item still holds the expected content (its
                    // eTag moves shortly after an upload): read it again before calling it a
                    // conflict.
                    guard try await stillHolds(options.precondition, at: path, replaced: condition.replaced) else {
                        throw error
                    }
                    logger.debug("OneDrive answered 412 for an unchanged item; writing again with its current tag")
                    attempt += 1
                }
            }
        }
    }

    /// The condition of a write, checked against the item now (for `mustMatch`, whose version
    /// is not a tag Graph compares).
    func prepare(_ precondition: WritePrecondition, at path: RemotePath) async throws -> WriteCondition {
        switch precondition {
        case .none:
            return WriteCondition(conflictBehavior: "replace", headers: [], replaced: nil)
        case .mustNotExist:
            return WriteCondition(conflictBehavior: "fail", headers: [("If-None-Match", "*")], replaced: nil)
        case .mustMatch:
            let item = try await item(at: path)
            let current: VersionID? =
                if let item, item.isFile { try await currentVersion(of: item) } else { nil }
            try precondition.check(current: current, at: path)
            guard let item, let cTag = item.cTag else {
                throw OneDriveErrorMapping.undecodable("GET item", "the file at \(path) has no cTag")
            }
            return WriteCondition(conflictBehavior: "replace", headers: [("If-Match", cTag)], replaced: item)
        }
    }

    /// Whether a precondition that met a 412 still holds when the item is read again: for
    /// `mustMatch`, the item is still at the expected version with the same cTag and hash as
    /// when the write was prepared.
    func stillHolds(_ precondition: WritePrecondition, at path: RemotePath, replaced: OneDriveItem?) async throws
        -> Bool
    {
        guard case .mustMatch(let expected) = precondition, let replaced, let now = try await item(at: path),
            now.isFile
        else { return false }
        let version = try await currentVersion(of: now)
        return version == expected && now.cTag == replaced.cTag
            && now.file?.hashes?.quickXorHash == replaced.file?.hashes?.quickXorHash
    }

    /// Sends the content, simply or through a session, and checks what Graph made of it.
    private func write(
        _ content: UploadContent, hash: String, to path: RemotePath, condition: WriteCondition,
        progress: MonotonicProgress
    ) async throws -> OneDriveItem {
        var item: OneDriveItem
        if content.size <= configuration.simpleUploadLimit {
            item = try await uploadSimply(content, hash: hash, to: path, condition: condition, progress: progress)
        } else {
            item = try await uploadInSession(content, hash: hash, to: path, condition: condition, progress: progress)
        }
        if item.quickXorHash == nil || item.size == nil {
            item = try await transport.json(
                "GET item", .get, transport.address.item(id: item.id), as: OneDriveItem.self)
        }
        guard item.quickXorHash?.value == hash, item.size == content.size else {
            throw ServiceError(
                .integrityMismatch,
                "OneDrive reports \(item.size.map(String.init) ?? "?") bytes with quickXorHash \(item.quickXorHash?.value ?? "none") for \(path) after the upload, but \(content.size) bytes with QuickXorHash \(hash) were sent; upload it again."
            )
        }
        await index.record(path, id: item.id, isFolder: false)
        return item
    }

    /// One `PUT .../content?@microsoft.graph.conflictBehavior=...`. After a failure whose
    /// outcome is unknown, the path is looked up first: the content, newly written, is taken
    /// as the result instead of being sent again.
    private func uploadSimply(
        _ content: UploadContent, hash: String, to path: RemotePath, condition: WriteCondition,
        progress: MonotonicProgress
    ) async throws -> OneDriveItem {
        let url = transport.address.item(
            path, "content", query: [("@microsoft.graph.conflictBehavior", condition.conflictBehavior)])
        let size = content.size
        return try await configuration.retryPolicy.runWrite(lookFirst: {
            try await self.landed(at: path, hash: hash, size: size, replaced: condition.replaced)
        }) { _ in
            let response = try await transport.send(
                "PUT content", repetition: .never, progress: progress.upload(from: 0, limit: size)
            ) {
                var request = StratusHTTPRequest(method: .put, url: url)
                request.headers.set("Content-Type", "application/octet-stream")
                for (name, value) in condition.headers { request.headers.set(name, value) }
                request.body = content.body(0..<size)
                return request
            }
            return try OneDriveJSON.decode(OneDriveItem.self, from: response.body, action: "PUT content")
        }
    }

    /// An upload session; one that expired is replaced once, after checking that the content
    /// did not land meanwhile.
    private func uploadInSession(
        _ content: UploadContent, hash: String, to path: RemotePath, condition: WriteCondition,
        progress: MonotonicProgress
    ) async throws -> OneDriveItem {
        let upload = OneDriveUploadSession(
            transport: transport, content: content, fragmentSize: configuration.fragmentSize, progress: progress)
        for attempt in 1...2 {
            if attempt > 1,
                let item = try await landed(at: path, hash: hash, size: content.size, replaced: condition.replaced)
            {
                return item
            }
            let session = try await createSession(at: path, condition: condition)
            do {
                return try await upload.send(to: session, from: 0)
            } catch is OneDriveUploadSession.Expired {
                logger.debug("OneDrive upload session expired; starting a new one")
            } catch let error as ServiceError where error.code == .invalidResponse {
                // The last fragment's answer was damaged on the way: the content may be in place.
                guard
                    let item = try await landed(
                        at: path, hash: hash, size: content.size, replaced: condition.replaced)
                else { throw error }
                return item
            }
        }
        throw ServiceError(.server, "OneDrive's upload sessions for \(path) kept expiring; try again.")
    }

    /// `POST .../createUploadSession` with the name-clash behaviour in the URL (as Graph's
    /// driveItem notes ask) and in the session's item (where the createUploadSession page shows
    /// it), and the condition in the headers; repeating it only leaves an unused session behind.
    private func createSession(at path: RemotePath, condition: WriteCondition) async throws -> URL {
        let body = OneDriveJSON.body([
            "item": ["@microsoft.graph.conflictBehavior": condition.conflictBehavior]
        ])
        let session = try await transport.json(
            "POST createUploadSession", .post,
            transport.address.item(
                path, "createUploadSession",
                query: [("@microsoft.graph.conflictBehavior", condition.conflictBehavior)]),
            body: body,
            headers: condition.headers, as: OneDriveUploadSessionStatus.self)
        guard let text = session.uploadUrl, let url = URL(string: text), url.scheme == "https" || url.scheme == "http"
        else {
            throw OneDriveErrorMapping.undecodable("POST createUploadSession", "the session has no usable uploadUrl")
        }
        return url
    }

    /// The item an earlier attempt may have written: the file at the path now, when it holds
    /// the content (size and hash) and is new (there was none, or its cTag moved).
    func landed(at path: RemotePath, hash: String, size: Int64, replaced: OneDriveItem?) async throws
        -> OneDriveItem?
    {
        guard let item = try await item(at: path), item.isFile else { return nil }
        let isNew = replaced.map { item.id != $0.id || item.cTag != $0.cTag } ?? true
        return isNew && item.quickXorHash?.value == hash && item.size == size ? item : nil
    }
}
