import Foundation
public import Stratus
import StratusAdapterKit
import StratusDigest
import StratusHTTP

/// Uploads: one `uploadType=multipart` request up to the single-upload limit, a resumable
/// session above it; `files.create` for a new file, `files.update` for new content of an
/// existing one (which makes a new head revision).
extension DriveService {
    /// Where new content goes.
    enum UploadTarget: Sendable {
        /// A new file in this folder.
        case create(parentID: String)
        /// New content for this file.
        case update(DriveFile)
    }

    /// A folder id that turned out to be stale (Drive answered 404 for it).
    private struct StaleFolder: Error {}

    /// Writes content to a path. See ``/Stratus/Service/upload(from:to:options:)``.
    ///
    /// Preconditions are checked just before the write (best effort): `.mustNotExist` looks the
    /// name up, `.mustMatch` compares the file's `headRevisionId`. Custom metadata goes to
    /// `appProperties`: `nil` keeps the file's, a dictionary replaces them (keys it lacks are
    /// removed), `[:]` clears them.
    public func upload(from source: UploadSource, to path: RemotePath, options: UploadOptions) async throws
        -> RemoteFile
    {
        try await guarded {
            guard let parent = path.parent else {
                throw ServiceError(.invalidPath, "Cannot upload to the root folder; give a file name.")
            }
            try DriveService.pathRules.validate(path)
            let content = try UploadContent(source)
            let md5 = try content.md5()
            let progress = MonotonicProgress(options.progress, total: content.size)
            for attempt in 1...2 {
                do {
                    let file = try await write(content, md5: md5, to: path, options: options, progress: progress)
                    progress.report(content.size)
                    await saveStateAfterWrite()
                    return file
                } catch is StaleFolder {
                    // A folder on the way was deleted by someone else since it was cached.
                    await index.forgetFolders(along: parent)
                    if attempt == 2 { break }
                }
            }
            throw ServiceError(
                .conflict, "The folder of \(path) was deleted while it was being written; nothing was written.")
        }
    }

    /// Writes one upload: looks the name up in its folder, then creates a file or updates the
    /// one found.
    ///
    /// The lookup (`files.list` by parent and name) is made for every write, even into a folder
    /// this service has just listed or filled itself, and that is deliberate. Drive keeps
    /// several files of one name side by side, so a create sent while a file of that name
    /// exists makes a duplicate, and the path then means the older file: the new content would
    /// be invisible. Skipping the lookup is safe only when no file of that name can exist at the
    /// moment of the create, and nothing the service holds can show that: a folder's listing,
    /// the path index and the change feed all describe the past, and another client (or
    /// another `DriveService` in this process) may have written the name since — a folder this
    /// service created a moment ago included, as its id is visible to every lister at once.
    /// Preconditions (`mustNotExist`, `mustMatch`) need the lookup anyway. The lookup keeps the
    /// window for such a race to one round trip; a cached "known folder contents" rule would
    /// widen it to the cache's age. Many small files are made fast by writing them
    /// concurrently: the lookup then costs each upload a round trip of latency, not the batch
    /// its throughput.
    private func write(
        _ content: UploadContent, md5: String, to path: RemotePath, options: UploadOptions, progress: MonotonicProgress
    ) async throws -> RemoteFile {
        guard let parent = path.parent, let parentID = try await folderID(parent, create: true) else {
            throw ServiceError(.conflict, "The folder of \(path) could not be created.")
        }
        let entries = try await children(of: parentID, named: path.name)
        if entries.contains(where: \.isFolder) {
            throw ServiceError(.conflict, "A folder is at \(path); a file cannot be written there.")
        }
        let current = DriveNameRule.preferred(entries.filter { !$0.isFolder && !$0.isGoogleNative })
        try options.precondition.check(current: current.map(\.currentVersion), at: path)
        let target: UploadTarget = current.map { .update($0) } ?? .create(parentID: parentID)
        let metadata = try uploadMetadata(for: target, name: path.name, custom: options.metadata)
        var file: DriveFile
        do {
            if content.size <= configuration.singleUploadLimit {
                file = try await uploadMultipart(
                    content, md5: md5, target: target, name: path.name, parentID: parentID, metadata: metadata,
                    progress: progress)
            } else {
                file = try await uploadResumable(
                    content, md5: md5, target: target, name: path.name, parentID: parentID, metadata: metadata,
                    progress: progress)
            }
        } catch let error as ServiceError where error.code == .notFound {
            throw StaleFolder()
        }
        if file.headRevisionId == nil || file.md5Checksum == nil || file.size == nil {
            file = try await transport.json(
                "files.get", .get, transport.apiURL("files/\(file.id)", [("fields", DriveFile.fields)]),
                as: DriveFile.self)
        }
        try DriveService.checkUploaded(file, md5: md5, size: content.size, path: path)
        await index.record(path, id: file.id, isFolder: false)
        return try remoteFile(file, at: path, action: "files.create")
    }

    /// Checks Drive's description of an upload against what was sent.
    /// - Throws: ``/Stratus/ServiceError/Code/integrityMismatch`` when the size or MD5 differ.
    static func checkUploaded(_ file: DriveFile, md5: String, size: Int64, path: RemotePath) throws {
        guard file.md5Checksum == md5, file.size == size else {
            throw ServiceError(
                .integrityMismatch,
                "Drive reports \(file.size.map(String.init) ?? "?") bytes with md5Checksum \(file.md5Checksum ?? "none") for \(path) after the upload, but \(size) bytes with MD5 \(md5) were sent; upload it again."
            )
        }
    }

    /// The JSON metadata of a create or update.
    func uploadMetadata(for target: UploadTarget, name: String, custom: [String: String]?) throws -> Data {
        var members: [String: DriveJSONBody] = [:]
        switch target {
        case .create(let parentID):
            members["name"] = .string(name)
            members["parents"] = .array([.string(parentID)])
            members["mimeType"] = .string("application/octet-stream")
            if let custom, !custom.isEmpty {
                members["appProperties"] = .object(custom.mapValues { .string($0) })
            }
        case .update(let existing):
            if let custom {
                var properties: [String: DriveJSONBody] = [:]
                for key in (existing.appProperties ?? [:]).keys where custom[key] == nil {
                    properties[key] = .null
                }
                for (key, value) in custom { properties[key] = .string(value) }
                if !properties.isEmpty { members["appProperties"] = .object(properties) }
            }
        }
        return try DriveJSONBody.encode(members)
    }

    /// The method, URL and action name of an upload request.
    private func uploadEndpoint(_ target: UploadTarget, uploadType: String) -> (StratusHTTPMethod, URL, String) {
        let query = [("uploadType", uploadType), ("fields", DriveFile.fields)]
        switch target {
        case .create: return (.post, transport.uploadURL("files", query), "files.create")
        case .update(let file): return (.patch, transport.uploadURL("files/\(file.id)", query), "files.update")
        }
    }

    /// One `multipart/related` request. After a failure whose outcome is unknown, the folder is
    /// looked up first: content that already arrived (same size and MD5, a new file or a new
    /// head revision) is taken as the result instead of being sent again, so a retried create
    /// never leaves a duplicate.
    private func uploadMultipart(
        _ content: UploadContent, md5: String, target: UploadTarget, name: String, parentID: String,
        metadata: Data, progress: MonotonicProgress
    ) async throws -> DriveFile {
        let (method, url, action) = uploadEndpoint(target, uploadType: "multipart")
        let size = content.size
        return try await configuration.retryPolicy.runWrite(lookFirst: {
            try await landedUpload(named: name, in: parentID, md5: md5, size: size, target: target)
        }) { _ in
            let boundary = "stratus-" + UUID().uuidString
            let response = try await transport.send(
                action, repetition: .never, progress: progress.upload(from: 0, limit: size)
            ) {
                var request = StratusHTTPRequest(method: method, url: url)
                request.headers.set("Content-Type", "multipart/related; boundary=\(boundary)")
                request.body = content.multipartBody(metadata: metadata, boundary: boundary)
                return request
            }
            return try DriveTransport.decode(DriveFile.self, from: response.body, action: action)
        }
    }

    /// A resumable session; a session that expired is replaced once, after checking that the
    /// content did not land meanwhile.
    private func uploadResumable(
        _ content: UploadContent, md5: String, target: UploadTarget, name: String, parentID: String,
        metadata: Data, progress: MonotonicProgress
    ) async throws -> DriveFile {
        let (method, url, action) = uploadEndpoint(target, uploadType: "resumable")
        let upload = DriveResumableUpload(
            transport: transport, content: content, chunkSize: configuration.chunkSize, progress: progress)
        for attempt in 1...2 {
            if attempt > 1,
                let landed = try await landedUpload(
                    named: name, in: parentID, md5: md5, size: content.size, target: target)
            {
                return landed
            }
            let session = try await upload.initiate(method: method, url: url, metadata: metadata, action: action)
            do {
                return try await upload.send(to: session, from: 0)
            } catch is DriveResumableUpload.SessionExpired {
                logger.debug("Drive upload session expired; starting a new one")
            }
        }
        throw ServiceError(.server, "Drive's upload sessions for \(name) kept expiring; try again.")
    }

    /// The file an earlier attempt of an upload may have written: the entry the name means now,
    /// when it holds the content (size and MD5) and is new (a created file, or a head revision
    /// other than the one replaced). For a create, another file in the way is a conflict.
    func landedUpload(named name: String, in parentID: String, md5: String, size: Int64, target: UploadTarget)
        async throws -> DriveFile?
    {
        let entries = try await children(of: parentID, named: name)
        guard let file = DriveNameRule.preferred(entries.filter { !$0.isFolder && !$0.isGoogleNative }) else {
            return nil
        }
        let isNew: Bool =
            switch target {
            case .create: true
            case .update(let previous): file.id != previous.id || file.headRevisionId != previous.headRevisionId
            }
        if isNew, file.md5Checksum == md5, file.size == size { return file }
        if case .create = target {
            throw ServiceError(
                .conflict,
                "Another client wrote \(name.debugDescription) while this upload's outcome was unknown; nothing more was written."
            )
        }
        return nil
    }
}
