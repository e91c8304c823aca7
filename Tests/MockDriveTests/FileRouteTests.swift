import Foundation
import MockProviders
import StratusHTTP
import Testing

@Suite("files: create, get, list, update, delete")
struct FileRouteTests {
    @Test("metadata-only create of a folder and a file; get answers the default fields, then the selected ones")
    func createAndGet() async throws {
        try await DriveMockProvider().withSession { harness in
            let folder = try await harness.createFolder("Docs")
            let created = try await harness.send(
                .post, "/drive/v3/files", json: ["name": "empty.txt", "parents": [folder]])
            #expect(created.status == 200)
            let file = try DriveHarness.object(created)
            #expect(Set(file.keys) == ["kind", "id", "name", "mimeType"])
            #expect(file["kind"] as? String == "drive#file")
            #expect(file["mimeType"] as? String == "application/octet-stream")
            let id = try #require(file["id"] as? String)

            let selected = try await harness.send(
                .get, "/drive/v3/files/\(id)", query: [("fields", "id,size,parents,md5Checksum,version,createdTime")])
            let metadata = try DriveHarness.object(selected)
            #expect(Set(metadata.keys) == ["id", "size", "parents", "md5Checksum", "version", "createdTime"])
            #expect(metadata["size"] as? String == "0")
            #expect(metadata["parents"] as? [String] == [folder])
            #expect(metadata["md5Checksum"] as? String == "d41d8cd98f00b204e9800998ecf8427e")
            #expect(metadata["version"] is String)
            let created3339 = try #require(metadata["createdTime"] as? String)
            #expect(created3339.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil)

            let all = try DriveHarness.object(
                try await harness.send(.get, "/drive/v3/files/\(id)", query: [("fields", "*")]))
            #expect(all["quotaBytesUsed"] as? String == "0")
            #expect(all["headRevisionId"] is String)
            #expect(all["trashed"] as? Bool == false)

            let folderResource = try DriveHarness.object(
                try await harness.send(.get, "/drive/v3/files/\(folder)", query: [("fields", "*")]))
            #expect(folderResource["size"] == nil)
            #expect(folderResource["md5Checksum"] == nil)
            #expect(folderResource["mimeType"] as? String == "application/vnd.google-apps.folder")
        }
    }

    @Test("root and appDataFolder aliases resolve to their folders")
    func aliases() async throws {
        try await DriveMockProvider().withSession { harness in
            let root = try DriveHarness.object(
                try await harness.send(.get, "/drive/v3/files/root", query: [("fields", "id,name")]))
            #expect(root["id"] as? String == harness.server.rootFolderID)
            let appData = try DriveHarness.object(
                try await harness.send(.get, "/drive/v3/files/appDataFolder", query: [("fields", "id")]))
            #expect(appData["id"] as? String == harness.server.appDataFolderID)
            let hidden = try await harness.createFile("config.json", Data("{}".utf8), parent: "appDataFolder")
            #expect(hidden["parents"] as? [String] == [harness.server.appDataFolderID])
            #expect(hidden["spaces"] as? [String] == ["appDataFolder"])
            let visible = try await harness.createFile("visible.txt", Data("v".utf8), parent: "root")
            #expect(visible["parents"] as? [String] == [harness.server.rootFolderID])

            let drive = try DriveHarness.object(
                try await harness.send(.get, "/drive/v3/files", query: [("fields", "files(name)")]))
            #expect((drive["files"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["visible.txt"])
            let app = try DriveHarness.object(
                try await harness.send(
                    .get, "/drive/v3/files",
                    query: [
                        ("spaces", "appDataFolder"), ("q", "'appDataFolder' in parents"), ("fields", "files(name)"),
                    ]
                ))
            #expect((app["files"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["config.json"])
            let both = try DriveHarness.object(
                try await harness.send(.get, "/drive/v3/files", query: [("spaces", "drive,appDataFolder")]))
            #expect((both["files"] as? [[String: Any]])?.count == 2)
        }
    }

    @Test("fields: nested selections, slash paths, * and unknown names")
    func partialResponses() async throws {
        try await DriveMockProvider().withSession { harness in
            try await harness.createFile("a.txt", Data("a".utf8))
            let nested = try DriveHarness.object(
                try await harness.send(.get, "/drive/v3/files", query: [("fields", "files(id,name,size)")]))
            #expect(Set(nested.keys) == ["files"])
            let first = try #require((nested["files"] as? [[String: Any]])?.first)
            #expect(Set(first.keys) == ["id", "name", "size"])
            let slash = try DriveHarness.object(
                try await harness.send(.get, "/drive/v3/files", query: [("fields", "kind,files/name")]))
            #expect(Set(slash.keys) == ["kind", "files"])
            #expect(Set(try #require((slash["files"] as? [[String: Any]])?.first).keys) == ["name"])
            let star = try DriveHarness.object(
                try await harness.send(.get, "/drive/v3/files", query: [("fields", "files(*)")]))
            #expect(try #require((star["files"] as? [[String: Any]])?.first)["sha256Checksum"] is String)
            let unknown = try await harness.send(.get, "/drive/v3/files", query: [("fields", "files(id,bogus)")])
            #expect(unknown.status == 400)
            let error = try DriveHarness.error(unknown)
            #expect(error.reason == "invalidParameter")
            #expect(error.location == "fields")
            let unbalanced = try await harness.send(.get, "/drive/v3/files", query: [("fields", "files(id")])
            #expect(unbalanced.status == 400)
        }
    }

    @Test("q: parents, names with escaped quotes, trashed, mimeType, appProperties has, and/or/not")
    func queries() async throws {
        try await DriveMockProvider().withSession { harness in
            let folder = try await harness.createFolder("Saves")
            let quoted = try await harness.createFile(
                "it's.txt", Data("1".utf8), parent: folder, appProperties: ["slot": "1"])
            try await harness.createFile("it's.txt", Data("2".utf8), parent: folder, appProperties: ["slot": "2"])
            let json = try await harness.createFile(
                "data.json", Data("{}".utf8), parent: folder, mimeType: "application/json")
            try await harness.createFile("elsewhere.txt", Data("3".utf8))
            let trashed = try await harness.send(
                .patch, "/drive/v3/files/\(try #require(json["id"] as? String))", json: ["trashed": true])
            #expect(trashed.status == 200)

            func names(_ q: String) async throws -> [String] {
                let response = try await harness.send(
                    .get, "/drive/v3/files", query: [("q", q), ("orderBy", "name"), ("fields", "files(name)")])
                #expect(response.status == 200, "\(q): \(DriveHarness.text(response))")
                return (try DriveHarness.object(response)["files"] as? [[String: Any]])?.compactMap {
                    $0["name"] as? String
                } ?? []
            }
            #expect(try await names("'\(folder)' in parents") == ["data.json", "it's.txt", "it's.txt"])
            #expect(try await names("'\(folder)' in parents and trashed = false") == ["it's.txt", "it's.txt"])
            #expect(try await names("name = 'it\\'s.txt'") == ["it's.txt", "it's.txt"])
            #expect(try await names("mimeType = 'application/json'") == ["data.json"])
            #expect(
                try await names("mimeType != 'application/vnd.google-apps.folder' and not '\(folder)' in parents") == [
                    "elsewhere.txt"
                ])
            #expect(try await names("appProperties has { key='slot' and value='1' }").count == 1)
            #expect(
                try await names("name contains 'ELSE' or mimeType = 'application/vnd.google-apps.folder'") == [
                    "elsewhere.txt", "Saves",
                ])
            #expect(try await names("trashed = true") == ["data.json"])
            let slot1 = try await harness.send(
                .get, "/drive/v3/files", query: [("q", "appProperties has { key='slot' and value='1' }")])
            #expect(
                (try DriveHarness.object(slot1)["files"] as? [[String: Any]])?.first?["id"] as? String == quoted["id"]
                    as? String)

            for bad in [
                "name = 'unclosed", "bogus = 'x'", "name = ", "trashed = 'yes'", "'x' in nowhere", "name == 'a'",
            ] {
                let response = try await harness.send(.get, "/drive/v3/files", query: [("q", bad)])
                #expect(response.status == 400, "\(bad)")
                let error = try DriveHarness.error(response)
                #expect(error.reason == "invalid" && error.location == "q", "\(bad)")
            }
        }
    }

    @Test("orderBy and paging: pageSize, nextPageToken, folders first, desc")
    func orderingAndPaging() async throws {
        try await DriveMockProvider(options: .init(maximumPageSize: 3)).withSession { harness in
            for name in ["b", "a", "C", "d", "e"] {
                try await harness.createFile(name, Data(name.utf8))
            }
            _ = try await harness.createFolder("z-folder")
            var names: [String] = []
            var token: String?
            var pages = 0
            repeat {
                var query = [
                    ("orderBy", "folder,name desc"), ("pageSize", "50"), ("fields", "nextPageToken,files(name)"),
                ]
                if let token { query.append(("pageToken", token)) }
                let page = try DriveHarness.object(try await harness.send(.get, "/drive/v3/files", query: query))
                let files = try #require(page["files"] as? [[String: Any]])
                #expect(files.count <= 3)
                names += files.compactMap { $0["name"] as? String }
                token = page["nextPageToken"] as? String
                pages += 1
            } while token != nil && pages < 10
            #expect(names == ["z-folder", "e", "d", "C", "b", "a"])
            #expect(pages == 2)

            let badToken = try await harness.send(.get, "/drive/v3/files", query: [("pageToken", "garbage")])
            #expect(try DriveHarness.error(badToken).location == "pageToken")
            let zero = try await harness.send(.get, "/drive/v3/files", query: [("pageSize", "0")])
            #expect(zero.status == 400)
            let badOrder = try await harness.send(.get, "/drive/v3/files", query: [("orderBy", "size")])
            #expect(try DriveHarness.error(badOrder).location == "orderBy")
        }
    }

    @Test("update: rename, appProperties (null deletes), addParents/removeParents, trash and untrash")
    func update() async throws {
        try await DriveMockProvider().withSession { harness in
            let first = try await harness.createFolder("First")
            let second = try await harness.createFolder("Second")
            let file = try await harness.createFile(
                "note.txt", Data("n".utf8), parent: first, appProperties: ["a": "1", "b": "2"])
            let id = try #require(file["id"] as? String)
            let oldVersion = try #require((file["version"] as? String).flatMap { Int($0) })

            let renamed = try await harness.send(
                .patch, "/drive/v3/files/\(id)",
                query: [
                    ("addParents", second), ("removeParents", first), ("fields", "name,parents,appProperties,version"),
                ],
                json: ["name": "renamed.txt", "appProperties": ["a": NSNull(), "c": "3"]]
            )
            #expect(renamed.status == 200, "\(DriveHarness.text(renamed))")
            let metadata = try DriveHarness.object(renamed)
            #expect(metadata["name"] as? String == "renamed.txt")
            #expect(metadata["parents"] as? [String] == [second])
            #expect(metadata["appProperties"] as? [String: String] == ["b": "2", "c": "3"])
            #expect(try #require((metadata["version"] as? String).flatMap { Int($0) }) > oldVersion)

            let twoParents = try await harness.send(
                .patch, "/drive/v3/files/\(id)", query: [("addParents", first)], json: [:])
            #expect(twoParents.status == 403)
            #expect(try DriveHarness.error(twoParents).reason == "cannotAddParent")
            let parentsInBody = try await harness.send(.patch, "/drive/v3/files/\(id)", json: ["parents": [first]])
            #expect(try DriveHarness.error(parentsInBody).reason == "fieldNotWritable")
            let readOnly = try await harness.send(.patch, "/drive/v3/files/\(id)", json: ["size": "12"])
            #expect(try DriveHarness.error(readOnly).reason == "fieldNotWritable")

            let trashFolder = try await harness.send(.patch, "/drive/v3/files/\(second)", json: ["trashed": true])
            #expect(trashFolder.status == 200)
            let inherited = try DriveHarness.object(
                try await harness.send(.get, "/drive/v3/files/\(id)", query: [("fields", "trashed,explicitlyTrashed")]))
            #expect(inherited["trashed"] as? Bool == true)
            #expect(inherited["explicitlyTrashed"] as? Bool == false)
            _ = try await harness.send(.patch, "/drive/v3/files/\(second)", json: ["trashed": false])
            let restored = try DriveHarness.object(
                try await harness.send(.get, "/drive/v3/files/\(id)", query: [("fields", "trashed")]))
            #expect(restored["trashed"] as? Bool == false)
        }
    }

    @Test("delete answers 204 and removes a folder's descendants; then 404 notFound with fileId")
    func delete() async throws {
        try await DriveMockProvider().withSession { harness in
            let folder = try await harness.createFolder("Gone")
            let child = try #require(
                try await harness.createFile("child.txt", Data("c".utf8), parent: folder)["id"] as? String)
            let deleted = try await harness.send(.delete, "/drive/v3/files/\(folder)")
            #expect(deleted.status == 204)
            #expect(deleted.body.isEmpty)
            let missing = try await harness.send(.get, "/drive/v3/files/\(child)")
            #expect(missing.status == 404)
            let error = try DriveHarness.error(missing)
            #expect(error.reason == "notFound")
            #expect(error.location == "fileId")
            #expect(error.status == "NOT_FOUND")
            let body = try DriveHarness.object(missing)
            #expect((body["error"] as? [String: Any])?["message"] as? String == "File not found: \(child).")
            let again = try await harness.send(.delete, "/drive/v3/files/\(folder)")
            #expect(again.status == 404)
            let root = try await harness.send(.delete, "/drive/v3/files/root")
            #expect(root.status == 403)
        }
    }

    @Test("duplicate names live side by side; a NUL in a name is refused")
    func names() async throws {
        try await DriveMockProvider().withSession { harness in
            let one = try await harness.createFile("same.txt", Data("1".utf8))
            let two = try await harness.createFile("same.txt", Data("2".utf8))
            #expect(one["id"] as? String != two["id"] as? String)
            let nul = try await harness.send(.post, "/drive/v3/files", json: ["name": "bad\u{0}name"])
            #expect(nul.status == 400)
            #expect(try DriveHarness.error(nul).reason == "invalid")
            let unknownParent = try await harness.send(
                .post, "/drive/v3/files", json: ["name": "x", "parents": ["nope"]])
            #expect(unknownParent.status == 404)
            let notJSON = try await harness.send(
                .post, "/drive/v3/files", body: Data("{".utf8), headers: [("Content-Type", "application/json")])
            #expect(try DriveHarness.error(notJSON).reason == "parseError")

            let generated = try DriveHarness.object(
                try await harness.send(.get, "/drive/v3/files/generateIds", query: [("count", "2")]))
            let ids = try #require(generated["ids"] as? [String])
            #expect(ids.count == 2)
            let chosen = try await harness.send(.post, "/drive/v3/files", json: ["id": ids[0], "name": "chosen"])
            #expect(try DriveHarness.object(chosen)["id"] as? String == ids[0])
            let duplicate = try await harness.send(.post, "/drive/v3/files", json: ["id": ids[0], "name": "again"])
            #expect(duplicate.status == 409)
        }
    }
}
