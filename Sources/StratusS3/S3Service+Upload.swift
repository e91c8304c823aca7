import Foundation
public import Stratus
import StratusAdapterKit
import StratusDigest
import StratusHTTP

/// Uploads: one `PutObject` up to ``S3Configuration/singleUploadLimit``, a multipart upload
/// above it. Every request carries the SHA-256 of its bytes (signed, so S3 checks it) and
/// `Content-MD5`; each answer's ETag is compared with the MD5, and the object's SHA-256 is kept
/// in `x-amz-meta-stratus-sha256`.
extension S3Service {
    /// Writes content to a path. See ``/Stratus/Service/upload(from:to:options:)``.
    ///
    /// A precondition is first checked by `HeadObject`; then, where the server honours it (see
    /// ``S3ConditionSupport``), ``/Stratus/WritePrecondition/mustNotExist`` is sent as
    /// `If-None-Match: *` and ``/Stratus/WritePrecondition/mustMatch(_:)`` as `If-Match` with the
    /// ETag of the version expected, so the server refuses a write that lost a race. A conditional
    /// upload above ``S3Configuration/singleUploadLimit`` goes up as one `PutObject` (up to 5 GiB)
    /// when the server does not check that condition on `CompleteMultipartUpload`. Where the
    /// server honours no condition the `HeadObject` check is all (`bestEffort`). A file cannot be
    /// written where a folder is (keys below the path) or below a file; those checks are
    /// `ListObjectsV2`/`HeadObject` requests made during the call before the write, so a writer in
    /// between can slip past them. A single `PutObject`'s answer describes the file written
    /// (its ETag is the MD5 of the bytes sent); the object is read back only when it cannot.
    public func upload(from source: UploadSource, to path: RemotePath, options: UploadOptions) async throws
        -> RemoteFile
    {
        try await guarded {
            guard !path.isRoot else { throw ServiceError(.invalidPath, "The root is a folder; give a file name.") }
            try validate(path)
            if let metadata = options.metadata {
                for name in metadata.keys
                where !S3MetadataCoding.isValidName(name) || name.hasPrefix(S3ObjectDescription.reservedNamePrefix) {
                    throw ServiceError(
                        .unsupported,
                        "The metadata name \(name.debugDescription) cannot be kept by S3: use lower-case letters, digits, '-' and '_', not starting with 'stratus-'."
                    )
                }
            }
            let start = ContinuousClock.now
            try await ensureVersioning()
            let content = try UploadContent(source)
            let isFileThere = try await checkNoFolderConflict(path, since: start)
            // The current file matters for a precondition, and for metadata nil (which keeps it).
            let needsCurrent = options.precondition != .none || options.metadata == nil
            let current = needsCurrent && isFileThere ? try await headIfPresent(path) : nil
            try options.precondition.check(current: try current.map(version(of:)), at: path)
            let support = options.precondition == .none ? S3ConditionSupport.none : try await resolvedConditionSupport()
            var conditions: [(String, String)] = []
            switch options.precondition {
            case .none:
                break
            case .mustNotExist:
                if support.putIfNoneMatch { conditions.append(("If-None-Match", "*")) }
            case .mustMatch:
                if let current, let value = support.ifMatch(current.etag) { conditions.append(("If-Match", value)) }
            }
            let metadata = options.metadata ?? current?.metadata ?? [:]
            let progress = MonotonicProgress(options.progress, total: content.size)
            var multipart = content.size > configuration.singleUploadLimit
            if multipart, let condition = conditions.first, !support.completionHonours(condition.0) {
                // The server checks the condition on PutObject but not on CompleteMultipartUpload
                // (moto's If-Match, Ceph's both): one PutObject keeps the write conditional.
                guard content.size <= S3Configuration.s3LargestSingleUpload else {
                    throw ServiceError(
                        .unsupported,
                        "\(path): this server does not check \(condition.0) when a multipart upload completes, and \(content.size) bytes are more than one PutObject takes (5 GiB), so the write cannot be conditional. Upload without a precondition, or set the remote's option conditional_writes to 'best_effort'."
                    )
                }
                multipart = false
            }
            let partSize = multipart ? effectivePartSize(for: content.size) : max(content.size, 1)
            let (sha256, parts) = try content.digests(partSize: partSize)
            var headers = conditions
            let stamp = S3ObjectDescription.writtenStamp()
            headers.append(("x-amz-meta-" + S3ObjectDescription.sha256Name, sha256))
            headers.append(("x-amz-meta-" + S3ObjectDescription.writtenName, stamp))
            for (name, value) in metadata.sorted(by: { $0.key < $1.key }) {
                headers.append(("x-amz-meta-" + name, S3MetadataCoding.encode(value)))
            }
            var versionID: String?
            var answer: StratusHTTPResponse?
            do {
                if multipart {
                    versionID = try await multipartUpload(
                        path, content: content, sha256: sha256, parts: parts, partSize: partSize, headers: headers,
                        progress: progress)
                } else {
                    let response = try await putObject(
                        path, content: content, digests: parts[0], headers: headers,
                        isConditional: options.precondition != .none, progress: progress)
                    versionID = response.headers["x-amz-version-id"]
                    answer = response
                }
            } catch let error as ServiceError where error.code == .notFound && !conditions.isEmpty {
                // If-Match on a key that was deleted meanwhile.
                throw ServiceError(
                    .conflict, "\(path) changed before it could be written; nothing was written.",
                    httpStatus: error.httpStatus, providerError: error.providerError)
            } catch let error as ServiceError where error.code == .server && !conditions.isEmpty {
                versionID = try await settleConditionalFailure(
                    error, path: path, precondition: options.precondition, stamp: stamp, sha256: sha256)
            }
            if let answer,
                let file = writtenFile(
                    path, answer: answer, size: content.size, sha256: sha256, metadata: metadata)
            {
                progress.report(content.size)
                return file
            }
            let written = try await headDescription(path, version: configuration.versioning == .off ? nil : versionID)
            guard written.size == content.size, written.sha256 == sha256 else {
                throw ServiceError(
                    .integrityMismatch,
                    "S3 describes \(path) as \(written.size) bytes with SHA-256 \(written.sha256 ?? "none") after the upload of \(content.size) bytes with SHA-256 \(sha256)."
                )
            }
            metadataKept.withLock { $0 = true }
            progress.report(content.size)
            return try file(path, from: written)
        }
    }

    /// Settles a conditional write that failed with a server error, whose outcome is unknown:
    /// Ceph answers a conditional `PutObject` that lost a race inside the gateway (its guard on
    /// the object's tag) with `500 UnknownError`, having written nothing. The current object
    /// decides: when it is this write's (its write stamp and SHA-256), the write went through;
    /// when the precondition no longer holds, another writer came first (`conflict`); otherwise
    /// the server error stands.
    /// - Returns: The version id of this write, when it went through.
    func settleConditionalFailure(
        _ error: ServiceError, path: RemotePath, precondition: WritePrecondition, stamp: String, sha256: String
    ) async throws -> String? {
        let now = try await headIfPresent(path)
        if let now, now.written == Int64(stamp), now.sha256 == sha256 { return now.versionID }
        let stillHolds: Bool
        switch precondition {
        case .none: stillHolds = true
        case .mustNotExist: stillHolds = now == nil
        case .mustMatch(let expected): stillHolds = try now.map { try version(of: $0) } == expected
        }
        if stillHolds { throw error }
        throw ServiceError(
            .conflict,
            "\(path) was changed by another writer while this write was checked, and the server refused it (\(error.message)); this write is not there.",
            httpStatus: error.httpStatus, providerError: error.providerError)
    }

    /// A part size that keeps an upload within S3's 10,000 parts.
    func effectivePartSize(for size: Int64) -> Int64 {
        let needed = (size + S3Configuration.maximumPartCount - 1) / S3Configuration.maximumPartCount
        return max(configuration.partSize, needed)
    }

    /// `HeadObject`, or `nil` when no file is there.
    func headIfPresent(_ path: RemotePath) async throws -> S3ObjectDescription? {
        try await ServiceError.nilIfNotFound { try await headDescription(path, version: nil) }
    }

    /// Refuses a write where a folder is (keys below the path) or below a file (an ancestor is
    /// an object).
    ///
    /// One `ListObjectsV2` of the path's key as a prefix, with the delimiter `/`, answers both
    /// whether keys are below the path (the common prefix `<key>/`) and whether an object is at
    /// it (the key itself, which sorts first); then a `HeadObject` per folder above the path
    /// answers whether that folder is a file, shared with uploads running at the same time whose
    /// request went out after `start` (``S3FolderCheckSharing``).
    /// - Parameter start: When the upload began.
    /// - Returns: Whether an object is at the path.
    func checkNoFolderConflict(_ path: RemotePath, since start: ContinuousClock.Instant) async throws -> Bool {
        // The folder checks go out after the listing, not with it: an upload then finds the
        // check of its folder already sent, since it began, by another upload more often (with
        // 16 uploads at once into one folder, about 70 HEADs per 1,000 files against 980 when
        // they went out together).
        let isFileThere = try await surveyForWrite(path)
        var ancestor = path.parent
        while let folder = ancestor, !folder.isRoot {
            let isFile = try await folderChecks.isFile(key(for: folder), askedSince: start) { [self] in
                try await headIfPresent(folder) != nil
            }
            if isFile {
                throw ServiceError(.conflict, "\(folder) is a file, so nothing can be written below it at \(path).")
            }
            ancestor = folder.parent
        }
        return isFileThere
    }

    /// Lists the path's key as a prefix with the delimiter `/` (one page): throws `conflict` when
    /// keys are below the path.
    /// - Returns: Whether an object is at the path.
    private func surveyForWrite(_ path: RemotePath) async throws -> Bool {
        let key = key(for: path)
        let document = try await transport.sendXML(
            S3Transport.Request(
                method: .get, key: nil,
                query: [("list-type", "2"), ("prefix", key), ("delimiter", "/"), ("max-keys", "100")],
                action: "ListObjectsV2 of \(key)"),
            repetition: .safe
        )
        let folderPrefix = key + "/"
        var isFolder = document.children("CommonPrefixes").contains { $0.value("Prefix") == folderPrefix }
        // S3 lists in UTF-8 binary order, so the key itself comes before every longer key.
        let isFileThere = document.children("Contents").contains { $0.value("Key") == key }
        if !isFolder, document.value("IsTruncated") == "true" {
            // Other keys that start with the name filled the page before `<key>/`.
            isFolder = try await !listKeys(prefix: folderPrefix, limit: 1).isEmpty
        }
        if isFolder {
            throw ServiceError(.conflict, "\(path) is a folder (files are below it); a file cannot be written there.")
        }
        return isFileThere
    }

    /// The file a single `PutObject` wrote, from its answer alone, when the answer says all a
    /// `HeadObject` would: an ETag that is the MD5 of the bytes sent (checked by
    /// ``checkETag(_:expected:action:)``, so the server stored those bytes), the new version id
    /// when the bucket keeps versions, and a date. The size and SHA-256 are the ones sent;
    /// until one upload has read an object back and found its metadata kept, `nil` (read it
    /// back).
    private func writtenFile(
        _ path: RemotePath, answer: StratusHTTPResponse, size: Int64, sha256: String, metadata: [String: String]
    ) -> RemoteFile? {
        guard metadataKept.withLock({ $0 }),
            let etag = answer.headers["ETag"].map(S3ObjectDescription.unquoted),
            S3ObjectDescription.isContentMD5(etag),
            let date = (answer.headers["Last-Modified"] ?? answer.headers["Date"]).flatMap(HTTPDate.parse)
        else { return nil }
        let version: VersionID
        if configuration.versioning == .off {
            version = VersionID(etag)
        } else {
            guard let id = answer.headers["x-amz-version-id"], !id.isEmpty else { return nil }
            version = VersionID(id)
        }
        return RemoteFile(
            path: path, id: key(for: path), size: size, modified: date,
            contentHash: ContentHash(algorithm: .sha256, value: sha256), version: version, metadata: metadata)
    }

    /// One `PutObject`; its ETag is checked against the MD5 sent.
    /// - Returns: The answer.
    private func putObject(
        _ path: RemotePath,
        content: UploadContent,
        digests: UploadContent.RangeDigests,
        headers: [(String, String)],
        isConditional: Bool,
        progress: MonotonicProgress
    ) async throws -> StratusHTTPResponse {
        var fields = headers
        fields.append(("Content-MD5", digests.md5Base64))
        fields.append(("Content-Type", "application/octet-stream"))
        let request = S3Transport.Request(
            method: .put, key: key(for: path), headers: fields, body: content.body(0..<content.size),
            payloadHash: digests.sha256, action: "PutObject of \(path)"
        )
        // Without a condition, sending the same bytes again is harmless (at most one more
        // version of the same content); with one, a repeat of a write that went through would
        // be refused, so only a refusal is retried.
        let response = try await transport.send(
            request, repetition: isConditional ? .onlyWhenRefused : .safe, progress: progress.upload(from: 0))
        try checkETag(response, expected: digests, action: "PutObject of \(path)")
        return response
    }

    /// Compares an answer's ETag with the MD5 sent, when the ETag is an MD5.
    func checkETag(_ response: StratusHTTPResponse, expected: UploadContent.RangeDigests, action: String) throws {
        guard let etag = response.headers["ETag"].map(S3ObjectDescription.unquoted) else {
            throw S3ErrorMapping.undecodable(action, "the answer has no ETag")
        }
        if S3ObjectDescription.isContentMD5(etag), etag.lowercased() != expected.md5Hex {
            throw ServiceError(
                .integrityMismatch,
                "\(action): S3 stored bytes with MD5 \(etag), not the \(expected.md5Hex) that was sent.")
        }
    }
}
