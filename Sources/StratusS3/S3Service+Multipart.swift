import Foundation
import Stratus
import StratusAdapterKit
import StratusDigest
import StratusHTTP

/// What the adapter keeps about an unfinished multipart upload, in
/// `<root>/.stratus/uploads/<sha256 of the key>.json`, so a later upload of the same content
/// (after a crash, a cancellation or a lost connection) resumes it instead of starting over.
struct S3UploadRecord: Codable, Sendable, Equatable {
    var key: String
    var uploadID: String
    /// The SHA-256 of the whole content.
    var sha256: String
    var size: Int64
    var partSize: Int64
    /// The SHA-256 of the request headers the upload was created with (metadata, conditions).
    var headersDigest: String
}

/// Multipart uploads: create, resume (`ListParts`), upload parts, complete, abort.
extension S3Service {
    /// Uploads content in parts, resuming an earlier unfinished upload of the same content.
    /// - Returns: The new version id, when the bucket keeps versions.
    func multipartUpload(
        _ path: RemotePath,
        content: UploadContent,
        sha256: String,
        parts: [UploadContent.RangeDigests],
        partSize: Int64,
        headers: [(String, String)],
        progress: MonotonicProgress
    ) async throws -> String? {
        let key = key(for: path)
        let recordKey = reservedKey("uploads/" + Hex.encode(Digest.sha256(Data(key.utf8))) + ".json")
        let stampName = "x-amz-meta-" + S3ObjectDescription.writtenName
        let headersDigest = Hex.encode(
            Digest.sha256(
                Data(headers.filter { $0.0 != stampName }.map { "\($0.0.lowercased()):\($0.1)\n" }.joined().utf8)))
        let wanted = S3UploadRecord(
            key: key, uploadID: "", sha256: sha256, size: content.size, partSize: partSize, headersDigest: headersDigest
        )

        var uploadID: String?
        var done: [Int: String] = [:]
        if let record = try await readUploadRecord(recordKey) {
            var candidate = wanted
            candidate.uploadID = record.uploadID
            if record == candidate, let listed = try await listParts(key: key, uploadID: record.uploadID) {
                uploadID = record.uploadID
                for part in listed where part.number >= 1 && part.number <= parts.count {
                    let expected = parts[part.number - 1]
                    if part.etag.lowercased() == expected.md5Hex, part.size == Int64(expected.range.count) {
                        done[part.number] = part.etag
                    }
                }
                logger.debug(
                    "Resuming a multipart upload", metadata: ["key": "\(key)", "parts": "\(done.count)/\(parts.count)"])
            } else {
                try await abortUpload(key: key, uploadID: record.uploadID)
            }
        }
        try await abortAbandonedUploads(key: key, keeping: uploadID)

        if uploadID == nil {
            var fields = headers.filter { !["if-none-match", "if-match"].contains($0.0.lowercased()) }
            fields.append(("Content-Type", "application/octet-stream"))
            let document = try await transport.sendXML(
                S3Transport.Request(
                    method: .post, key: key, query: [("uploads", "")], headers: fields,
                    action: "CreateMultipartUpload of \(path)"),
                repetition: .safe
            )
            guard let id = document.value("UploadId"), !id.isEmpty else {
                throw S3ErrorMapping.undecodable("CreateMultipartUpload of \(path)", "the answer has no UploadId")
            }
            uploadID = id
            var record = wanted
            record.uploadID = id
            try await writeUploadRecord(record, at: recordKey)
        }
        guard let uploadID else { return nil }

        let sent = done.keys.reduce(Int64(0)) { $0 + Int64(parts[$1 - 1].range.count) }
        progress.report(sent)
        let partProgress = S3PartProgress(progress, alreadySent: sent)
        let pending = parts.indices.filter { done[$0 + 1] == nil }
        // Up to `uploadConcurrency` parts at once, each streamed from the content as it is sent,
        // so no more than that many parts are in flight (or in memory, for content in memory).
        // A part that fails ends the upload and cancels the others; the parts the server has
        // are resumed by the next upload of the same content.
        try await withThrowingTaskGroup(of: (Int, String).self) { group in
            var queue = pending.makeIterator()
            func startNext() {
                guard let index = queue.next() else { return }
                let part = parts[index]
                group.addTask {
                    try await self.uploadPart(
                        index + 1, of: parts.count, part, path: path, key: key, uploadID: uploadID, content: content,
                        progress: partProgress)
                }
            }
            for _ in 0..<min(max(configuration.uploadConcurrency, 1), S3Configuration.maximumUploadConcurrency) {
                startNext()
            }
            while let (number, etag) = try await group.next() {
                done[number] = etag
                startNext()
            }
        }
        try Task.checkCancellation()

        var body = "<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
        for number in 1...parts.count {
            body += "<Part><PartNumber>\(number)</PartNumber><ETag>\"\(done[number] ?? "")\"</ETag></Part>"
        }
        body += "</CompleteMultipartUpload>"
        let bodyData = Data(body.utf8)
        var fields = headers.filter { ["if-none-match", "if-match"].contains($0.0.lowercased()) }
        fields.append(("Content-Type", "application/xml"))
        let action = "CompleteMultipartUpload of \(path)"
        let request = S3Transport.Request(
            method: .post, key: key, query: [("uploadId", uploadID)], headers: fields,
            body: .bytes(bodyData), payloadHash: Hex.encode(Digest.sha256(bodyData)), action: action
        )
        let response: StratusHTTPResponse
        do {
            response = try await transport.send(request, repetition: .onlyWhenRefused)
        } catch let error as ServiceError where error.code == .conflict {
            // The condition failed: nothing was written, and this upload cannot complete.
            try? await abortUpload(key: key, uploadID: uploadID)
            try? await removeUploadRecord(recordKey)
            throw error
        }
        if let document = try? XMLTree.parse(response.body), document.name == "Error" {
            throw S3ErrorMapping.error(status: 500, body: response.body, action: action, secrets: transport.secrets)
        }
        try? await removeUploadRecord(recordKey)
        return response.headers["x-amz-version-id"]
    }

    /// Sends one part (`UploadPart`) and checks its ETag against the part's MD5.
    /// - Returns: The part number and its ETag.
    private func uploadPart(
        _ number: Int, of count: Int, _ part: UploadContent.RangeDigests, path: RemotePath, key: String,
        uploadID: String, content: UploadContent, progress: S3PartProgress
    ) async throws -> (Int, String) {
        try Task.checkCancellation()
        let action = "UploadPart \(number) of \(count) of \(path)"
        let request = S3Transport.Request(
            method: .put, key: key,
            query: [("partNumber", String(number)), ("uploadId", uploadID)],
            headers: [("Content-MD5", part.md5Base64)],
            body: content.body(part.range), payloadHash: part.sha256, action: action
        )
        let response = try await transport.send(
            request, repetition: .safe, progress: progress.callback(part: number, size: Int64(part.range.count)))
        try checkETag(response, expected: part, action: action)
        progress.finished(part: number, size: Int64(part.range.count))
        return (number, part.md5Hex)
    }

    /// A part listed by `ListParts`.
    struct ListedPart: Sendable {
        var number: Int
        var etag: String
        var size: Int64
    }

    /// The parts of an upload, or `nil` when the upload no longer exists.
    func listParts(key: String, uploadID: String) async throws -> [ListedPart]? {
        var parts: [ListedPart] = []
        var marker: String?
        repeat {
            var query = [("uploadId", uploadID)]
            if let marker { query.append(("part-number-marker", marker)) }
            let document: XMLTree
            do {
                document = try await transport.sendXML(
                    S3Transport.Request(method: .get, key: key, query: query, action: "ListParts of \(key)"),
                    repetition: .safe
                )
            } catch let error as ServiceError where error.code == .notFound {
                return nil
            }
            for element in document.children("Part") {
                guard let number = element.value("PartNumber").flatMap({ Int($0) }),
                    let etag = element.value("ETag"), let size = element.value("Size").flatMap({ Int64($0) })
                else { continue }
                parts.append(ListedPart(number: number, etag: S3ObjectDescription.unquoted(etag), size: size))
            }
            marker = document.value("IsTruncated") == "true" ? document.value("NextPartNumberMarker") : nil
        } while marker != nil
        return parts
    }

    /// Aborts an upload; one that no longer exists is fine.
    func abortUpload(key: String, uploadID: String) async throws {
        do {
            _ = try await transport.send(
                S3Transport.Request(
                    method: .delete, key: key, query: [("uploadId", uploadID)], action: "AbortMultipartUpload of \(key)"
                ),
                repetition: .safe
            )
        } catch let error as ServiceError where error.code == .notFound {
            return
        }
    }

    /// Aborts the key's unfinished uploads older than ``S3Configuration/abandonedUploadAge``
    /// (found with `ListMultipartUploads`), except one.
    func abortAbandonedUploads(key: String, keeping: String?) async throws {
        let document = try await transport.sendXML(
            S3Transport.Request(
                method: .get, key: nil, query: [("uploads", ""), ("prefix", key)],
                action: "ListMultipartUploads of \(key)"),
            repetition: .safe
        )
        let cutoff = Date().addingTimeInterval(-Double(configuration.abandonedUploadAge.components.seconds))
        for upload in document.children("Upload") where upload.value("Key") == key {
            guard let id = upload.value("UploadId"), id != keeping else { continue }
            let initiated = upload.value("Initiated").flatMap(S3Dates.isoDate) ?? .distantPast
            if initiated <= cutoff {
                logger.debug("Aborting an abandoned multipart upload", metadata: ["key": "\(key)"])
                try await abortUpload(key: key, uploadID: id)
            }
        }
    }

    /// Reads an upload record; `nil` when there is none or it is unreadable.
    private func readUploadRecord(_ recordKey: String) async throws -> S3UploadRecord? {
        do {
            let response = try await transport.send(
                S3Transport.Request(method: .get, key: recordKey, action: "GetObject of the upload record"),
                repetition: .safe, destination: .memory(limit: 64 * 1024)
            )
            return try? JSONDecoder().decode(S3UploadRecord.self, from: response.body)
        } catch let error as ServiceError where error.code == .notFound {
            return nil
        }
    }

    private func writeUploadRecord(_ record: S3UploadRecord, at recordKey: String) async throws {
        let data = try JSONEncoder().encode(record)
        _ = try await transport.send(
            S3Transport.Request(
                method: .put, key: recordKey,
                headers: [
                    ("Content-MD5", Data(Digest.md5(data)).base64EncodedString()), ("Content-Type", "application/json"),
                ],
                body: .bytes(data), payloadHash: Hex.encode(Digest.sha256(data)),
                action: "PutObject of the upload record"
            ),
            repetition: .safe
        )
    }

    /// Removes an upload record and, when the bucket keeps versions, every version of it, so
    /// the records leave no history behind.
    private func removeUploadRecord(_ recordKey: String) async throws {
        guard configuration.versioning != .off else {
            _ = try await transport.send(
                S3Transport.Request(method: .delete, key: recordKey, action: "DeleteObject of the upload record"),
                repetition: .safe)
            return
        }
        for entry in try await listVersions(prefix: recordKey) where entry.key == recordKey {
            _ = try await transport.send(
                S3Transport.Request(
                    method: .delete, key: recordKey, query: [("versionId", entry.versionID)],
                    action: "DeleteObject of the upload record"),
                repetition: .safe
            )
        }
    }
}
