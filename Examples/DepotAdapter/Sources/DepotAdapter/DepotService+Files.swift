import Foundation
import Stratus
import StratusAdapterKit
import StratusHTTP
import Synchronization

extension DepotService {
    /// Describes a file with `HEAD /files/{path}`.
    public func metadata(of path: RemotePath) async throws -> RemoteFile {
        try await ServiceError.guarding(Self.name) {
            try capabilities.pathRules.validate(path)
            guard let file = try await lookUp(path) else {
                throw ServiceError(.notFound, "No file is at \(path) on Depot.")
            }
            return try file.remoteFile()
        }
    }

    /// Writes a file with one `PUT /files/{path}` carrying its SHA-256; the precondition goes
    /// out as `If-None-Match: *` or `If-Match`, which the server checks as it stores the file.
    ///
    /// A `PUT` whose answer is lost may have been carried out, so it is never simply sent again:
    /// the kit's "look first" loop asks for the file, and when it holds this content the write
    /// stands.
    public func upload(from source: UploadSource, to path: RemotePath, options: UploadOptions) async throws
        -> RemoteFile
    {
        try await ServiceError.guarding(Self.name) {
            try capabilities.pathRules.validate(path)
            guard !path.isRoot else { throw ServiceError(.invalidPath, "The root is a folder; a file needs a name.") }
            if let metadata = options.metadata, !metadata.isEmpty {
                throw ServiceError(.unsupported, "Depot keeps no custom metadata; \(path) was not written.")
            }
            let content = try UploadContent(source)
            guard content.size <= configuration.maximumUploadSize else {
                let limit = configuration.maximumUploadSize
                throw ServiceError(
                    .payloadTooLarge, "\(path) has \(content.size) bytes; Depot takes at most \(limit) in one file.")
            }
            // Depot wants the SHA-256 before the body, to refuse bytes damaged on the way.
            guard let sha256 = try content.hexDigests([.sha256])[.sha256] else {
                throw ServiceError(.internalError, "The SHA-256 of the content of \(path) was not computed.")
            }
            let progress = MonotonicProgress(options.progress, total: content.size)
            let precondition = options.precondition
            let file = try await configuration.retryPolicy.runWrite(
                lookFirst: { try await self.lookForWrite(path, sha256: sha256, precondition: precondition) }
            ) { _ in
                try await self.put(content, sha256: sha256, to: path, precondition: precondition, progress: progress)
            }
            progress.report(content.size)
            return file
        }
    }

    /// One `PUT`, sent once.
    private func put(
        _ content: UploadContent, sha256: String, to path: RemotePath, precondition: WritePrecondition,
        progress: MonotonicProgress
    ) async throws -> RemoteFile {
        var request = makeRequest(.put, fileURL(path), headers: ["Depot-Content-SHA256": sha256])
        switch precondition {
        case .none: break
        case .mustNotExist: request.headers.set("If-None-Match", "*")
        case .mustMatch(let version): request.headers.set("If-Match", "\"\(version.rawValue)\"")
        }
        request.body = content.body(0..<content.size)
        // The loop decides what is sent again, not libcurl (which resends an idempotent request
        // on its own when a reused connection closes).
        request.isIdempotent = false
        let action = "PUT of \(path)"
        let response = try await send(request, progress: progress.upload(from: 0), action: action)
        guard response.isSuccess else { throw failure(response, action: action) }
        let written: DepotFileDescription
        do {
            written = try JSONDecoder().decode(DepotFileDescription.self, from: response.body)
        } catch {
            throw ServiceError(
                .invalidResponse, "Depot answered \(action) with JSON that does not describe a file: \(error)")
        }
        let file = try written.remoteFile()
        guard file.size == content.size, file.contentHash?.value == sha256, file.path == path else {
            let stored = "\(file.size) bytes with SHA-256 \(file.contentHash?.value ?? "?") at \(file.path)"
            throw ServiceError(
                .integrityMismatch,
                "Depot stored \(stored) for \(content.size) bytes with SHA-256 \(sha256) at \(path).")
        }
        return file
    }

    /// After a `PUT` of unknown outcome: the file, when it holds this content at a version the
    /// precondition did not name (so the write happened); `nil` when it did not happen.
    private func lookForWrite(_ path: RemotePath, sha256: String, precondition: WritePrecondition) async throws
        -> RemoteFile?
    {
        guard let found = try await lookUp(path), found.sha256.lowercased() == sha256 else { return nil }
        if case .mustMatch(let version) = precondition, found.etag == version.rawValue { return nil }
        return try found.remoteFile()
    }

    /// `HEAD /files/{path}` in the retry loop: the file, or `nil` when none is there.
    func lookUp(_ path: RemotePath) async throws -> DepotFileDescription? {
        try await configuration.retryPolicy.run(.safe) { _ in
            let action = "HEAD of \(path)"
            let response = try await send(makeRequest(.head, fileURL(path)), action: action)
            if response.status == 404 { return nil }
            guard response.isSuccess else { throw failure(response, action: action) }
            return try DepotFileDescription(headers: response.headers, path: path)
        }
    }

    /// Reads a file with `GET /files/{path}` into a staging file beside the destination, checks
    /// its SHA-256 and size against what the server reported, and only then renames it over the
    /// destination. An attempt that fails midway is continued with `Range` (and `If-Match`, so
    /// the rest comes from the same version); when the file changed in between, the download
    /// starts over.
    public func download(
        _ path: RemotePath, version: VersionID?, to destination: URL, options: DownloadOptions
    ) async throws -> RemoteFile {
        try await ServiceError.guarding(Self.name) {
            try capabilities.pathRules.validate(path)
            if let version {
                throw ServiceError(.unsupported, "Depot keeps no old versions; \(path) at \(version) cannot be read.")
            }
            let staging = try DownloadStaging(for: destination, service: "depot")
            defer { staging.discard() }
            let progress = MonotonicProgress(options.progress, total: nil)
            let started = Mutex<String?>(nil)
            let (response, file) = try await configuration.retryPolicy.run(.safe) { _ in
                try await self.get(path, into: staging, sameAs: started, progress: progress)
            }
            try staging.commit(
                response, .sha256, expected: file.sha256.lowercased(), size: file.size,
                path: path, service: Self.name, digestName: "SHA-256"
            )
            progress.report(file.size)
            return try file.remoteFile()
        }
    }

    /// One attempt of a download: a `GET`, continuing what the staging file holds from the
    /// version `started` names; when that version is gone (412), once more from the start.
    private func get(
        _ path: RemotePath, into staging: DownloadStaging, sameAs started: borrowing Mutex<String?>,
        progress: MonotonicProgress
    ) async throws -> (StratusHTTPResponse, DepotFileDescription) {
        let action = "GET of \(path)"
        for _ in 0..<2 {
            var request = makeRequest(.get, fileURL(path))
            request.responseDigests = [.sha256]
            if let etag = started.withLock({ $0 }) { request.headers.set("If-Match", "\"\(etag)\"") }
            let response = try await send(
                request, into: .resumableFile(staging.temporary), progress: progress.download(), action: action
            )
            if response.status == 412 {
                // The file changed since the bytes in the staging file arrived: start over.
                try staging.restart()
                started.withLock { $0 = nil }
                continue
            }
            guard response.isSuccess else { throw failure(response, action: action) }
            let file = try DepotFileDescription(headers: response.headers, path: path)
            started.withLock { $0 = file.etag }
            return (response, file)
        }
        throw ServiceError(.conflict, "\(path) kept changing while it was being read from Depot.")
    }

    /// Deletes a file with `DELETE /files/{path}`, with `If-Match` for a precondition. A delete
    /// whose answer is lost is looked at before it is sent again: when the file is gone, it
    /// happened.
    public func delete(_ path: RemotePath, precondition: WritePrecondition) async throws {
        try await ServiceError.guarding(Self.name) {
            try capabilities.pathRules.validate(path)
            var request = makeRequest(.delete, fileURL(path))
            switch precondition {
            case .none: break
            case .mustNotExist:
                throw ServiceError(
                    .conflict, "A delete with the precondition mustNotExist can never hold; \(path) was left as it is.")
            case .mustMatch(let version): request.headers.set("If-Match", "\"\(version.rawValue)\"")
            }
            request.isIdempotent = false
            let action = "DELETE of \(path)"
            let deletion = request
            try await configuration.retryPolicy.runWrite(
                lookFirst: { try await self.lookUp(path) == nil ? () : nil }
            ) { _ in
                let response = try await self.send(deletion, action: action)
                guard response.isSuccess else { throw self.failure(response, action: action) }
            }
        }
    }
}
