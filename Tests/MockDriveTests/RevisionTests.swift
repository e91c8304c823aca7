import Foundation
import MockProviders
import StratusHTTP
import Testing

@Suite("revisions")
struct RevisionTests {
    @Test("every content write adds a revision; list pages, get, alt=media of an old one, keepForever")
    func listAndGet() async throws {
        try await DriveMockProvider().withSession { harness in
            let file = try await harness.createFile("save.dat", Data("v1".utf8))
            let id = try #require(file["id"] as? String)
            for version in 2...4 {
                let response = try await harness.send(
                    .patch, "/upload/drive/v3/files/\(id)", query: [("uploadType", "media")],
                    body: Data("v\(version)".utf8), headers: [("Content-Type", "text/plain")]
                )
                #expect(response.status == 200)
            }
            _ = try await harness.send(.patch, "/drive/v3/files/\(id)", json: ["name": "metadata only.dat"])

            var revisions: [[String: Any]] = []
            var token: String?
            repeat {
                var query = [("pageSize", "3")]
                if let token { query.append(("pageToken", token)) }
                let page = try DriveHarness.object(
                    try await harness.send(.get, "/drive/v3/files/\(id)/revisions", query: query))
                #expect(page["kind"] as? String == "drive#revisionList")
                revisions += page["revisions"] as? [[String: Any]] ?? []
                token = page["nextPageToken"] as? String
            } while token != nil
            #expect(revisions.count == 4)
            let first = try #require(revisions.first)
            #expect(Set(first.keys) == ["kind", "id", "mimeType", "modifiedTime"])
            #expect(first["kind"] as? String == "drive#revision")
            let oldID = try #require(first["id"] as? String)

            let metadata = try DriveHarness.object(
                try await harness.send(.get, "/drive/v3/files/\(id)/revisions/\(oldID)", query: [("fields", "*")]))
            #expect(metadata["size"] as? String == "2")
            #expect(metadata["keepForever"] as? Bool == false)
            #expect(metadata["md5Checksum"] is String)
            let old = try await harness.send(
                .get, "/drive/v3/files/\(id)/revisions/\(oldID)", query: [("alt", "media")])
            #expect(old.body == Data("v1".utf8))
            let ranged = try await harness.send(
                .get, "/drive/v3/files/\(id)/revisions/\(oldID)", query: [("alt", "media")],
                headers: [("Range", "bytes=1-")])
            #expect(ranged.status == 206)
            #expect(ranged.body == Data("1".utf8))

            let pinned = try await harness.send(
                .patch, "/drive/v3/files/\(id)/revisions/\(oldID)", query: [("fields", "id,keepForever")],
                json: ["keepForever": true])
            #expect(try DriveHarness.object(pinned)["keepForever"] as? Bool == true)
            let badField = try await harness.send(
                .patch, "/drive/v3/files/\(id)/revisions/\(oldID)", json: ["size": "3"])
            #expect(badField.status == 403)
            let head = try DriveHarness.object(
                try await harness.send(.get, "/drive/v3/files/\(id)", query: [("fields", "headRevisionId")]))
            #expect(head["headRevisionId"] as? String == revisions.last?["id"] as? String)

            let missing = try await harness.send(.get, "/drive/v3/files/\(id)/revisions/nope")
            #expect(missing.status == 404)
            let error = try DriveHarness.error(missing)
            #expect(error.reason == "notFound")
            #expect(error.location == "revisionId")
            let folder = try await harness.createFolder("F")
            #expect(try await harness.send(.get, "/drive/v3/files/\(folder)/revisions").status == 403)
        }
    }

    @Test(
        "delete removes revisions but never the last one (400 cannotDeleteOnlyRevision); deleting the head falls back")
    func delete() async throws {
        try await DriveMockProvider().withSession { harness in
            let file = try await harness.createFile("save.dat", Data("one".utf8))
            let id = try #require(file["id"] as? String)
            _ = try await harness.send(
                .patch, "/upload/drive/v3/files/\(id)", query: [("uploadType", "media")], body: Data("two".utf8),
                headers: [("Content-Type", "text/plain")])
            let list = try DriveHarness.object(try await harness.send(.get, "/drive/v3/files/\(id)/revisions"))
            let ids = (list["revisions"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            #expect(ids.count == 2)

            let deleted = try await harness.send(.delete, "/drive/v3/files/\(id)/revisions/\(ids[1])")
            #expect(deleted.status == 204)
            #expect(
                try await harness.send(.get, "/drive/v3/files/\(id)", query: [("alt", "media")]).body
                    == Data("one".utf8))
            let last = try await harness.send(.delete, "/drive/v3/files/\(id)/revisions/\(ids[0])")
            #expect(last.status == 400)
            #expect(try DriveHarness.error(last).reason == "cannotDeleteOnlyRevision")
            let again = try await harness.send(.delete, "/drive/v3/files/\(id)/revisions/\(ids[1])")
            #expect(again.status == 404)
        }
    }
}
