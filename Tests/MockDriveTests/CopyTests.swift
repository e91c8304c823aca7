import Foundation
import MockProviders
import StratusHTTP
import Testing

@Suite("files.copy")
struct CopyTests {
    @Test("A copy has a new id and its own revision with the same content, in the source's folder")
    func copyInPlace() async throws {
        try await DriveMockProvider().withSession { harness in
            let folder = try await harness.createFolder("Saves")
            let source = try await harness.createFile(
                "slot.sav", Data("state".utf8), parent: folder, appProperties: ["slot": "1", "device": "phone"])
            let sourceID = try #require(source["id"] as? String)
            let start = try #require(
                try DriveHarness.object(try await harness.send(.get, "/drive/v3/changes/startPageToken"))[
                    "startPageToken"] as? String)

            let response = try await harness.send(
                .post, "/drive/v3/files/\(sourceID)/copy", query: [("fields", "*")], json: [:])
            #expect(response.status == 200, "\(DriveHarness.text(response))")
            let copy = try DriveHarness.object(response)
            let copyID = try #require(copy["id"] as? String)
            #expect(copyID != sourceID)
            #expect(copy["name"] as? String == "Copy of slot.sav")
            #expect(copy["parents"] as? [String] == [folder])
            #expect(copy["md5Checksum"] as? String == source["md5Checksum"] as? String)
            #expect(copy["size"] as? String == "5")
            #expect(copy["mimeType"] as? String == "text/plain")
            #expect(copy["appProperties"] as? [String: String] == ["slot": "1", "device": "phone"])
            let head = try #require(copy["headRevisionId"] as? String)
            #expect(head != source["headRevisionId"] as? String)

            let revisions = try DriveHarness.object(
                try await harness.send(.get, "/drive/v3/files/\(copyID)/revisions"))
            #expect((revisions["revisions"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [head])
            let content = try await harness.send(.get, "/drive/v3/files/\(copyID)", query: [("alt", "media")])
            #expect(String(decoding: content.body, as: UTF8.self) == "state")

            let (changes, _, _) = try await ChangeTests.drain(harness, from: start)
            #expect(changes.compactMap { $0["fileId"] as? String } == [copyID])
            // The source is untouched.
            let after = try DriveHarness.object(
                try await harness.send(.get, "/drive/v3/files/\(sourceID)", query: [("fields", "version,name")]))
            #expect(after["name"] as? String == "slot.sav")
            #expect(after["version"] as? String == source["version"] as? String)
        }
    }

    @Test("The body's metadata applies with patch semantics; fields narrows the answer; the default is Drive's")
    func copyWithMetadata() async throws {
        try await DriveMockProvider().withSession { harness in
            let from = try await harness.createFolder("From")
            let to = try await harness.createFolder("To")
            let source = try await harness.createFile(
                "a.txt", Data("abc".utf8), parent: from, appProperties: ["keep": "yes", "drop": "me"])
            let sourceID = try #require(source["id"] as? String)
            let body: [String: Any] = [
                "name": "b.txt", "parents": [to], "description": "a copy",
                "appProperties": ["drop": NSNull(), "new": "1"],
            ]
            let response = try await harness.send(
                .post, "/drive/v3/files/\(sourceID)/copy",
                query: [
                    ("fields", "id,name,parents,description,appProperties,md5Checksum"),
                    ("keepRevisionForever", "true"), ("supportsAllDrives", "true"),
                    ("ignoreDefaultVisibility", "true"), ("ocrLanguage", "en"),
                ],
                json: body)
            #expect(response.status == 200, "\(DriveHarness.text(response))")
            let copy = try DriveHarness.object(response)
            #expect(Set(copy.keys) == ["id", "name", "parents", "description", "appProperties", "md5Checksum"])
            #expect(copy["name"] as? String == "b.txt")
            #expect(copy["parents"] as? [String] == [to])
            #expect(copy["description"] as? String == "a copy")
            #expect(copy["appProperties"] as? [String: String] == ["keep": "yes", "new": "1"])
            let copyID = try #require(copy["id"] as? String)
            let revisions = try DriveHarness.object(
                try await harness.send(
                    .get, "/drive/v3/files/\(copyID)/revisions", query: [("fields", "revisions(keepForever)")]))
            #expect((revisions["revisions"] as? [[String: Any]])?.first?["keepForever"] as? Bool == true)

            let plain = try DriveHarness.object(
                try await harness.send(.post, "/drive/v3/files/\(sourceID)/copy", json: ["name": "c.txt"]))
            #expect(Set(plain.keys) == ["kind", "id", "name", "mimeType"])
            #expect(plain["kind"] as? String == "drive#file")

            // An id from files.generateIds may be used, once.
            let generated = try DriveHarness.object(
                try await harness.send(.get, "/drive/v3/files/generateIds", query: [("count", "1")]))
            let id = try #require((generated["ids"] as? [String])?.first)
            let withID = try await harness.send(.post, "/drive/v3/files/\(sourceID)/copy", json: ["id": id])
            #expect(try DriveHarness.object(withID)["id"] as? String == id)
            let again = try await harness.send(.post, "/drive/v3/files/\(sourceID)/copy", json: ["id": id])
            #expect(again.status == 409)
        }
    }

    @Test("Errors: a missing source, a folder, a bad or missing parent, two parents, read-only fields")
    func errors() async throws {
        try await DriveMockProvider().withSession { harness in
            let folder = try await harness.createFolder("Folder")
            let source = try #require(try await harness.createFile("a.txt", Data("a".utf8))["id"] as? String)

            let missing = try await harness.send(.post, "/drive/v3/files/no-such-file/copy", json: [:])
            let notFound = try DriveHarness.error(missing)
            #expect(notFound.code == 404)
            #expect(notFound.reason == "notFound")
            #expect(notFound.location == "fileId")

            let folderCopy = try DriveHarness.error(
                try await harness.send(.post, "/drive/v3/files/\(folder)/copy", json: [:]))
            #expect(folderCopy.code == 403)
            #expect(folderCopy.reason == "cannotCopyFile")
            let rootCopy = try DriveHarness.error(try await harness.send(.post, "/drive/v3/files/root/copy", json: [:]))
            #expect(rootCopy.reason == "cannotCopyFile")

            let noParent = try DriveHarness.error(
                try await harness.send(.post, "/drive/v3/files/\(source)/copy", json: ["parents": ["nowhere-at-all"]]))
            #expect(noParent.code == 404)
            #expect(noParent.reason == "notFound")

            let fileParent = try DriveHarness.error(
                try await harness.send(.post, "/drive/v3/files/\(source)/copy", json: ["parents": [source]]))
            #expect(fileParent.code == 400)
            #expect(fileParent.reason == "invalid")
            #expect(fileParent.location == "parents")

            let twoParents = try DriveHarness.error(
                try await harness.send(.post, "/drive/v3/files/\(source)/copy", json: ["parents": [folder, "root"]]))
            #expect(twoParents.code == 403)
            #expect(twoParents.reason == "cannotAddParent")

            let readOnly = try DriveHarness.error(
                try await harness.send(.post, "/drive/v3/files/\(source)/copy", json: ["md5Checksum": "x"]))
            #expect(readOnly.code == 403)
            #expect(readOnly.reason == "fieldNotWritable")

            let toDocs = try DriveHarness.error(
                try await harness.send(
                    .post, "/drive/v3/files/\(source)/copy",
                    json: ["mimeType": "application/vnd.google-apps.document"]))
            #expect(toDocs.reason == "fieldNotWritable")

            let badFlag = try DriveHarness.error(
                try await harness.send(
                    .post, "/drive/v3/files/\(source)/copy", query: [("keepRevisionForever", "maybe")], json: [:]))
            #expect(badFlag.code == 400)

            let unauthorized = try await harness.send(
                .post, "/drive/v3/files/\(source)/copy", json: [:], token: .some(nil))
            #expect(unauthorized.status == 401)
        }
    }
}
