import Foundation
import MockProviders
import StratusDigest
import StratusHTTP
import Testing

@Suite("uploads: media, multipart, and downloads with Range")
struct UploadTests {
    @Test("uploadType=media creates an Untitled file of the body's type; PATCH replaces its content")
    func mediaUpload() async throws {
        try await DriveMockProvider().withSession { harness in
            let created = try await harness.send(
                .post, "/upload/drive/v3/files",
                query: [("uploadType", "media"), ("fields", "id,name,mimeType,size,md5Checksum,headRevisionId")],
                body: Data("raw bytes".utf8), headers: [("Content-Type", "image/png")]
            )
            #expect(created.status == 200)
            let file = try DriveHarness.object(created)
            #expect(file["name"] as? String == "Untitled")
            #expect(file["mimeType"] as? String == "image/png")
            #expect(file["size"] as? String == "9")
            #expect(file["md5Checksum"] as? String == "a36cb478703f4ea8cb83217513030feb")
            let id = try #require(file["id"] as? String)

            let replaced = try await harness.send(
                .patch, "/upload/drive/v3/files/\(id)",
                query: [("uploadType", "media"), ("fields", "size,headRevisionId")],
                body: Data("new".utf8), headers: [("Content-Type", "image/png")]
            )
            let updated = try DriveHarness.object(replaced)
            #expect(updated["size"] as? String == "3")
            #expect(updated["headRevisionId"] as? String != file["headRevisionId"] as? String)
            let media = try await harness.send(.get, "/drive/v3/files/\(id)", query: [("alt", "media")])
            #expect(media.status == 200)
            #expect(media.body == Data("new".utf8))
            #expect(media.headers["Content-Type"] == "image/png")

            let missingType = try await harness.send(.post, "/upload/drive/v3/files", body: Data("x".utf8))
            #expect(missingType.status == 400)
            let wrongType = try await harness.send(
                .post, "/upload/drive/v3/files", query: [("uploadType", "chunked")], body: Data("x".utf8))
            #expect(try DriveHarness.error(wrongType).location == "uploadType")
            let unknownFile = try await harness.send(
                .patch, "/upload/drive/v3/files/nope", query: [("uploadType", "media")], body: Data("x".utf8))
            #expect(unknownFile.status == 404)
        }
    }

    @Test("multipart with CRLF or bare LF line breaks and a quoted boundary; content and hashes round-trip")
    func multipart() async throws {
        try await DriveMockProvider().withSession { harness in
            let content = DriveHarness.bytes(200_000) + Data("\r\n--stratus-boundary-4".utf8) + DriveHarness.bytes(10)
            for lineBreak in ["\r\n", "\n"] {
                let (body, contentType) = try DriveHarness.multipart(
                    metadata: ["name": "save.bin", "appProperties": ["k": "v"]], content: content,
                    mimeType: "application/x-save", lineBreak: lineBreak
                )
                let response = try await harness.send(
                    .post, "/upload/drive/v3/files",
                    query: [
                        ("uploadType", "multipart"),
                        ("fields", "id,name,mimeType,size,sha256Checksum,sha1Checksum,appProperties"),
                    ],
                    body: body, headers: [("Content-Type", contentType)]
                )
                #expect(response.status == 200, "\(DriveHarness.text(response))")
                let file = try DriveHarness.object(response)
                #expect(file["name"] as? String == "save.bin")
                #expect(file["mimeType"] as? String == "application/x-save")
                #expect(file["size"] as? String == String(content.count))
                #expect(file["appProperties"] as? [String: String] == ["k": "v"])
                let sha = SHA256Digest()
                content.withUnsafeBytes { sha.update($0) }
                #expect(file["sha256Checksum"] as? String == sha.finalizeHex())
                let sha1 = SHA1Digest()
                content.withUnsafeBytes { sha1.update($0) }
                #expect(file["sha1Checksum"] as? String == sha1.finalizeHex())
                let id = try #require(file["id"] as? String)
                let media = try await harness.send(.get, "/drive/v3/files/\(id)", query: [("alt", "media")])
                #expect(media.body == content)
            }
        }
    }

    @Test("malformed multipart bodies answer 400 badRequest")
    func malformedMultipart() async throws {
        try await DriveMockProvider().withSession { harness in
            let (good, contentType) = try DriveHarness.multipart(
                metadata: ["name": "x"], content: Data("abc".utf8), mimeType: "text/plain")
            let cases: [(String, Data, String)] = [
                ("no boundary parameter", good, "multipart/related"),
                ("not multipart", good, "application/octet-stream"),
                ("truncated before the closing boundary", good.prefix(good.count - 30), contentType),
                ("wrong boundary", good, "multipart/related; boundary=other"),
                (
                    "metadata part not JSON",
                    Data("--b\r\nContent-Type: text/plain\r\n\r\nhi\r\n--b\r\n\r\nx\r\n--b--".utf8),
                    "multipart/related; boundary=b"
                ),
                (
                    "three parts",
                    Data(
                        "--b\r\nContent-Type: application/json\r\n\r\n{}\r\n--b\r\n\r\nx\r\n--b\r\n\r\ny\r\n--b--".utf8),
                    "multipart/related; boundary=b"
                ),
                (
                    "metadata not an object",
                    Data("--b\r\nContent-Type: application/json\r\n\r\n[1]\r\n--b\r\n\r\nx\r\n--b--".utf8),
                    "multipart/related; boundary=b"
                ),
            ]
            for (label, body, type) in cases {
                let response = try await harness.send(
                    .post, "/upload/drive/v3/files", query: [("uploadType", "multipart")], body: body,
                    headers: [("Content-Type", type)]
                )
                #expect(response.status == 400, "\(label): \(DriveHarness.text(response))")
                let reason = try DriveHarness.error(response).reason
                #expect(reason == "badRequest" || reason == "parseError", "\(label)")
            }
            let listed = try DriveHarness.object(try await harness.send(.get, "/drive/v3/files"))
            #expect((listed["files"] as? [Any])?.isEmpty == true)
        }
    }

    @Test("alt=media honours Range with 206 and Content-Range; unsatisfiable answers 416")
    func ranges() async throws {
        try await DriveMockProvider().withSession { harness in
            let content = DriveHarness.bytes(1000)
            let id = try #require(try await harness.createFile("r.bin", content)["id"] as? String)
            let part = try await harness.send(
                .get, "/drive/v3/files/\(id)", query: [("alt", "media")], headers: [("Range", "bytes=100-199")])
            #expect(part.status == 206)
            #expect(part.headers["Content-Range"] == "bytes 100-199/1000")
            #expect(part.body == content.subdata(in: 100..<200))
            let tail = try await harness.send(
                .get, "/drive/v3/files/\(id)", query: [("alt", "media")], headers: [("Range", "bytes=-10")])
            #expect(tail.body == content.suffix(10))
            let beyond = try await harness.send(
                .get, "/drive/v3/files/\(id)", query: [("alt", "media")], headers: [("Range", "bytes=5000-")])
            #expect(beyond.status == 416)
            #expect(beyond.headers["Content-Range"] == "bytes */1000")

            let empty = try #require(
                try DriveHarness.object(try await harness.send(.post, "/drive/v3/files", json: ["name": "empty"]))["id"]
                    as? String)
            let whole = try await harness.send(.get, "/drive/v3/files/\(empty)", query: [("alt", "media")])
            #expect(whole.status == 200)
            #expect(whole.body.isEmpty)
            let folder = try await harness.createFolder("F")
            let notDownloadable = try await harness.send(.get, "/drive/v3/files/\(folder)", query: [("alt", "media")])
            #expect(notDownloadable.status == 403)
            #expect(try DriveHarness.error(notDownloadable).reason == "fileNotDownloadable")
        }
    }

    @Test("uploads larger than maxUploadBytes are refused and leave nothing behind")
    func uploadLimit() async throws {
        try await DriveMockProvider(options: .init(maxUploadBytes: 1000)).withSession { harness in
            let tooBig = try await harness.send(
                .post, "/upload/drive/v3/files", query: [("uploadType", "media")], body: DriveHarness.bytes(1001),
                headers: [("Content-Type", "text/plain")]
            )
            #expect(tooBig.status == 413)
            let (body, type) = try DriveHarness.multipart(
                metadata: ["name": "big"], content: DriveHarness.bytes(2000), mimeType: "text/plain")
            let multipart = try await harness.send(
                .post, "/upload/drive/v3/files", query: [("uploadType", "multipart")], body: body,
                headers: [("Content-Type", type)])
            #expect(multipart.status == 413)
            let listed = try DriveHarness.object(try await harness.send(.get, "/drive/v3/files"))
            #expect((listed["files"] as? [Any])?.isEmpty == true)
        }
    }
}
