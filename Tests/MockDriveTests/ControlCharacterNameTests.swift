import Foundation
import MockProviders
import StratusHTTP
import Testing

/// Drive refuses a file name with a control character wherever a name is written, with its
/// 400 `invalid` error at `name`; names are not paths, so `/`, `.` and `..` stay legal.
@Suite("control characters in names")
struct ControlCharacterNameTests {
    /// Code points of C0 control characters at the range's edges and in between, and DEL (as
    /// numbers, so test reports print them rather than the characters themselves).
    static let controls: [UInt32] = [0x00, 0x01, 0x09, 0x0A, 0x0D, 0x1B, 0x1F, 0x7F]

    /// Checks the whole Google error body: 400, `invalid` at `name`, location type `other`.
    private static func expectInvalidName(_ response: StratusHTTPResponse, _ label: String) throws {
        #expect(response.status == 400, "\(label): \(DriveHarness.text(response))")
        #expect(response.headers["Content-Type"]?.hasPrefix("application/json") == true)
        let error = try #require(try DriveHarness.object(response)["error"] as? [String: Any])
        #expect(error["code"] as? Int == 400)
        #expect(error["status"] as? String == "INVALID_ARGUMENT")
        #expect((error["message"] as? String)?.isEmpty == false)
        let items = try #require(error["errors"] as? [[String: Any]])
        #expect(items.count == 1)
        let item = try #require(items.first)
        #expect(item["domain"] as? String == "global", "\(label)")
        #expect(item["reason"] as? String == "invalid", "\(label)")
        #expect(item["location"] as? String == "name", "\(label)")
        #expect(item["locationType"] as? String == "other", "\(label)")
        #expect(item["message"] as? String == error["message"] as? String)
    }

    /// The names of every file the mock holds in My Drive.
    private static func names(_ harness: DriveHarness) async throws -> [String] {
        let listed = try await harness.send(
            .get, "/drive/v3/files", query: [("orderBy", "name"), ("fields", "files(name)")])
        #expect(listed.status == 200, "\(DriveHarness.text(listed))")
        let files = try #require(try DriveHarness.object(listed)["files"] as? [[String: Any]])
        return files.compactMap { $0["name"] as? String }
    }

    @Test("create, update, multipart and resumable metadata refuse the name and change nothing", arguments: controls)
    func refused(codePoint: UInt32) async throws {
        let control = try #require(Unicode.Scalar(codePoint))
        try await DriveMockProvider().withSession { harness in
            let bad = "slot" + String(control) + "1.save"
            let label = "U+" + String(codePoint, radix: 16, uppercase: true)
            let existing = try await harness.createFile("kept.save", Data("kept".utf8))
            let id = try #require(existing["id"] as? String)

            try Self.expectInvalidName(
                try await harness.send(.post, "/drive/v3/files", json: ["name": bad]), "create \(label)")
            try Self.expectInvalidName(
                try await harness.send(.patch, "/drive/v3/files/\(id)", json: ["name": bad]), "update \(label)")

            let (body, contentType) = try DriveHarness.multipart(
                metadata: ["name": bad], content: Data("x".utf8), mimeType: "text/plain")
            let multipart = try await harness.send(
                .post, "/upload/drive/v3/files", query: [("uploadType", "multipart")], body: body,
                headers: [("Content-Type", contentType)]
            )
            try Self.expectInvalidName(multipart, "multipart create \(label)")
            let multipartUpdate = try await harness.send(
                .patch, "/upload/drive/v3/files/\(id)", query: [("uploadType", "multipart")], body: body,
                headers: [("Content-Type", contentType)]
            )
            try Self.expectInvalidName(multipartUpdate, "multipart update \(label)")

            for (method, path) in [
                (StratusHTTPMethod.post, "/upload/drive/v3/files"), (.patch, "/upload/drive/v3/files/\(id)"),
            ] {
                let resumable = try await harness.send(
                    method, path, query: [("uploadType", "resumable")], json: ["name": bad])
                try Self.expectInvalidName(resumable, "resumable \(method) \(label)")
                #expect(resumable.headers["Location"] == nil)
            }

            #expect(try await Self.names(harness) == ["kept.save"])
            let media = try await harness.send(.get, "/drive/v3/files/\(id)", query: [("alt", "media")])
            #expect(media.body == Data("kept".utf8))
        }
    }

    @Test("names with /, . and .. are ordinary Drive names, kept exactly")
    func pathLikeNamesAccepted() async throws {
        try await DriveMockProvider().withSession { harness in
            let names = [
                "..", ".", "a/b", "../escape.save", "/leading", "trailing/", "dir/../x", "caf\u{E9} \u{1F3AE}",
            ]
            for name in names {
                let created = try await harness.send(.post, "/drive/v3/files", json: ["name": name])
                #expect(created.status == 200, "\(name.debugDescription): \(DriveHarness.text(created))")
                #expect(try DriveHarness.object(created)["name"] as? String == name)
            }
            let uploaded = try await harness.createFile("up/../load.save", Data("bytes".utf8))
            let id = try #require(uploaded["id"] as? String)
            let renamed = try await harness.send(.patch, "/drive/v3/files/\(id)", json: ["name": "x/y/.."])
            #expect(try DriveHarness.object(renamed)["name"] as? String == "x/y/..")
            #expect(try await Self.names(harness).sorted() == (names + ["x/y/.."]).sorted())
        }
    }
}
