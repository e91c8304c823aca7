import Foundation
import MockProviders
import StratusDigest
import StratusHTTP
import Testing

@Suite("resumable uploads")
struct ResumableUploadTests {
    static let chunk = 256 * 1024

    /// Starts a session; returns its URI.
    static func start(
        _ harness: DriveHarness, metadata: [String: Any], fileID: String? = nil, total: Int? = nil,
        query: [(String, String)] = []
    ) async throws -> URL {
        var headers = [("X-Upload-Content-Type", "application/x-save")]
        if let total { headers.append(("X-Upload-Content-Length", String(total))) }
        let path = fileID.map { "/upload/drive/v3/files/\($0)" } ?? "/upload/drive/v3/files"
        let response = try await harness.send(
            fileID == nil ? .post : .patch, path, query: [("uploadType", "resumable")] + query, json: metadata,
            headers: headers
        )
        #expect(response.status == 200, "\(DriveHarness.text(response))")
        let location = try #require(response.headers["Location"])
        #expect(location.contains("upload_id="))
        return try #require(URL(string: location))
    }

    @Test("chunks answer 308 with Range; a status query resumes; the last chunk answers the file")
    func chunkedCreate() async throws {
        try await DriveMockProvider().withSession { harness in
            let content = DriveHarness.bytes(Self.chunk * 2 + 1000)
            let session = try await Self.start(
                harness, metadata: ["name": "big.save"], query: [("fields", "id,name,size,mimeType")])

            let status0 = try await harness.send(
                .put, absolute: session, headers: [("Content-Range", "bytes */\(content.count)")])
            #expect(status0.status == 308)
            #expect(status0.headers["Range"] == nil)

            let first = try await harness.send(
                .put, absolute: session, body: content.prefix(Self.chunk),
                headers: [("Content-Range", "bytes 0-\(Self.chunk - 1)/*")])
            #expect(first.status == 308)
            #expect(first.headers["Range"] == "bytes=0-\(Self.chunk - 1)")

            let notMultiple = try await harness.send(
                .put, absolute: session, body: content.subdata(in: Self.chunk..<(Self.chunk + 1000)),
                headers: [("Content-Range", "bytes \(Self.chunk)-\(Self.chunk + 999)/\(content.count)")]
            )
            #expect(notMultiple.status == 400)
            #expect(try DriveHarness.error(notMultiple).reason == "badRequest")

            let gap = try await harness.send(
                .put, absolute: session, body: content.subdata(in: (Self.chunk * 2)..<content.count),
                headers: [("Content-Range", "bytes \(Self.chunk * 2)-\(content.count - 1)/\(content.count)")]
            )
            #expect(gap.status == 400)

            let status1 = try await harness.send(.put, absolute: session, headers: [("Content-Range", "bytes */*")])
            #expect(status1.status == 308)
            #expect(status1.headers["Range"] == "bytes=0-\(Self.chunk - 1)")

            // Resend an overlapping range: the bytes already stored are skipped.
            let second = try await harness.send(
                .put, absolute: session, body: content.subdata(in: 0..<(Self.chunk * 2)),
                headers: [("Content-Range", "bytes 0-\(Self.chunk * 2 - 1)/\(content.count)")]
            )
            #expect(second.status == 308)
            #expect(second.headers["Range"] == "bytes=0-\(Self.chunk * 2 - 1)")

            let last = try await harness.send(
                .put, absolute: session, body: content.subdata(in: (Self.chunk * 2)..<content.count),
                headers: [("Content-Range", "bytes \(Self.chunk * 2)-\(content.count - 1)/\(content.count)")]
            )
            #expect(last.status == 200, "\(DriveHarness.text(last))")
            let file = try DriveHarness.object(last)
            #expect(Set(file.keys) == ["id", "name", "size", "mimeType"])
            #expect(file["size"] as? String == String(content.count))
            #expect(file["mimeType"] as? String == "application/x-save")
            let id = try #require(file["id"] as? String)
            let media = try await harness.send(.get, "/drive/v3/files/\(id)", query: [("alt", "media")])
            #expect(media.body == content)
            try await Self.expectHashes(of: id, content, harness)

            let after = try await harness.send(
                .put, absolute: session, headers: [("Content-Range", "bytes */\(content.count)")])
            #expect(after.status == 200)
            #expect(try DriveHarness.object(after)["id"] as? String == id)
            let listed = try DriveHarness.object(try await harness.send(.get, "/drive/v3/files"))
            #expect((listed["files"] as? [Any])?.count == 1)
        }
    }

    @Test("a whole upload in one PUT, an empty upload, and a resumable update of an existing file")
    func singleShotAndUpdate() async throws {
        try await DriveMockProvider().withSession { harness in
            let content = Data("small save".utf8)
            let session = try await Self.start(harness, metadata: ["name": "one.save"], total: content.count)
            let done = try await harness.send(
                .put, absolute: session, body: content,
                headers: [("Content-Range", "bytes 0-\(content.count - 1)/\(content.count)")])
            #expect(done.status == 200)
            let id = try #require(try DriveHarness.object(done)["id"] as? String)

            let emptySession = try await Self.start(harness, metadata: ["name": "empty.save"])
            let empty = try await harness.send(.put, absolute: emptySession, headers: [("Content-Range", "bytes */0")])
            #expect(empty.status == 200, "\(DriveHarness.text(empty))")

            let update = try await Self.start(
                harness, metadata: ["name": "renamed.save"], fileID: id, query: [("fields", "name,size")])
            let updated = try await harness.send(
                .put, absolute: update, body: Data("v2".utf8), headers: [("Content-Range", "bytes 0-1/2")])
            #expect(updated.status == 200)
            let file = try DriveHarness.object(updated)
            #expect(file["name"] as? String == "renamed.save")
            #expect(file["size"] as? String == "2")
            let revisions = try DriveHarness.object(try await harness.send(.get, "/drive/v3/files/\(id)/revisions"))
            #expect((revisions["revisions"] as? [Any])?.count == 2)

            let mismatch = try await Self.start(harness, metadata: ["name": "m"], total: 10)
            let wrongTotal = try await harness.send(
                .put, absolute: mismatch, body: Data("abc".utf8), headers: [("Content-Range", "bytes 0-2/3")])
            #expect(wrongTotal.status == 400)
            let unknown = try await harness.send(
                .put, "/upload/drive/v3/files", query: [("uploadType", "resumable"), ("upload_id", "nope")],
                headers: [("Content-Range", "bytes */*")])
            #expect(unknown.status == 404)
            let badRange = try await harness.send(
                .put, absolute: mismatch, body: Data("abc".utf8), headers: [("Content-Range", "items 0-2/3")])
            #expect(badRange.status == 400)
        }
    }

    @Test("a chunk whose body is shorter than its Content-Range leaves only the acknowledged bytes")
    func shortChunk() async throws {
        try await DriveMockProvider().withSession { harness in
            let session = try await Self.start(harness, metadata: ["name": "short.save"])
            let content = DriveHarness.bytes(Self.chunk * 2)
            let first = try await harness.send(
                .put, absolute: session, body: content.prefix(Self.chunk),
                headers: [("Content-Range", "bytes 0-\(Self.chunk - 1)/*")])
            #expect(first.status == 308)
            let short = try await harness.send(
                .put, absolute: session, body: content.subdata(in: Self.chunk..<(Self.chunk + 100)),
                headers: [("Content-Range", "bytes \(Self.chunk)-\(Self.chunk * 2 - 1)/\(Self.chunk * 2)")]
            )
            #expect(short.status == 400)
            let status = try await harness.send(
                .put, absolute: session, headers: [("Content-Range", "bytes */\(Self.chunk * 2)")])
            #expect(status.status == 308)
            #expect(status.headers["Range"] == "bytes=0-\(Self.chunk - 1)")
            let rest = try await harness.send(
                .put, absolute: session, body: content.subdata(in: Self.chunk..<(Self.chunk * 2)),
                headers: [("Content-Range", "bytes \(Self.chunk)-\(Self.chunk * 2 - 1)/\(Self.chunk * 2)")]
            )
            #expect(rest.status == 200)
            let id = try #require(try DriveHarness.object(rest)["id"] as? String)
            #expect(try await harness.send(.get, "/drive/v3/files/\(id)", query: [("alt", "media")]).body == content)
            try await Self.expectHashes(of: id, content, harness)
        }
    }

    /// The hashes the mock reports for a file are those of `content` (the session hashes bytes
    /// as they arrive; a retransmitted range or a failed chunk must not reach those digests).
    private static func expectHashes(of id: String, _ content: Data, _ harness: DriveHarness) async throws {
        let file = try DriveHarness.object(
            try await harness.send(
                .get, "/drive/v3/files/\(id)", query: [("fields", "md5Checksum,sha1Checksum,sha256Checksum")]))
        #expect(file["md5Checksum"] as? String == Hex.encode(Digest.md5(content)))
        #expect(file["sha1Checksum"] as? String == Hex.encode(Digest.sha1(content)))
        #expect(file["sha256Checksum"] as? String == Hex.encode(Digest.sha256(content)))
    }

    @Test("expired sessions answer 404 notFound, and a new session works")
    func expiry() async throws {
        try await DriveMockProvider().withSession { harness in
            let session = try await Self.start(harness, metadata: ["name": "late.save"])
            let first = try await harness.send(
                .put, absolute: session, body: DriveHarness.bytes(Self.chunk),
                headers: [("Content-Range", "bytes 0-\(Self.chunk - 1)/*")])
            #expect(first.status == 308)
            harness.server.expireUploadSessions()
            let gone = try await harness.send(.put, absolute: session, headers: [("Content-Range", "bytes */*")])
            #expect(gone.status == 404)
            #expect(try DriveHarness.error(gone).reason == "notFound")
            let again = try await Self.start(harness, metadata: ["name": "late.save"])
            let done = try await harness.send(
                .put, absolute: again, body: Data("ok".utf8), headers: [("Content-Range", "bytes 0-1/2")])
            #expect(done.status == 200)
        }
    }
}
