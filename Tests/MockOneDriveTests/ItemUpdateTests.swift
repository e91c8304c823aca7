import Foundation
import MockOneDrive
import MockProviders
import StratusHTTP
import Testing

@Suite("Graph mock: PATCH (rename, move, fileSystemInfo) and copy")
struct ItemUpdateTests {
    @Test("PATCH renames and moves by parentReference, keeps the cTag, checks If-Match and name clashes")
    func renameAndMove() async throws {
        try await OneDriveMockProvider().withSession { harness in
            let file = try await harness.put("/a/one.txt", Data("one".utf8))
            try await harness.put("/b/keep.txt", Data("keep".utf8))
            let id = try #require(file["id"] as? String)
            let folderB = try #require(try await harness.item("/b")["id"] as? String)

            let stale = try await harness.send(
                .patch, "/v1.0/me/drive/items/\(id)", json: ["name": "x.txt"], headers: [("If-Match", "aXN0YWxl")])
            #expect(stale.status == 412)

            let renamed = try await harness.send(.patch, "/v1.0/me/drive/items/\(id)", json: ["name": "two.txt"])
            #expect(renamed.status == 200, "\(OneDriveHarness.text(renamed))")
            let renamedItem = try OneDriveHarness.object(renamed)
            #expect(renamedItem["name"] as? String == "two.txt")
            #expect(renamedItem["cTag"] as? String == file["cTag"] as? String)
            #expect(renamedItem["eTag"] as? String != file["eTag"] as? String)
            #expect(try await harness.send(.get, "/v1.0/me/drive/root:/a/one.txt").status == 404)

            let clash = try await harness.send(
                .patch, "/v1.0/me/drive/items/\(id)", json: ["name": "keep.txt", "parentReference": ["id": folderB]])
            #expect(clash.status == 409)
            #expect(try OneDriveHarness.errorCodes(clash).first == "nameAlreadyExists")

            let moved = try await harness.send(
                .patch, "/v1.0/me/drive/root:/a/two.txt:", json: ["parentReference": ["path": "/drive/root:/b"]])
            #expect(moved.status == 200, "\(OneDriveHarness.text(moved))")
            #expect(try await harness.item("/b/two.txt")["id"] as? String == id)
            #expect(try await harness.download("/v1.0/me/drive/root:/b/two.txt:").body == Data("one".utf8))

            let intoItself = try await harness.send(
                .patch, "/v1.0/me/drive/items/\(folderB)", json: ["parentReference": ["id": folderB]])
            #expect(intoItself.status == 400)
        }
    }

    @Test("PATCH fileSystemInfo sets the client's dates, as rclone does after an upload")
    func fileSystemInfo() async throws {
        try await OneDriveMockProvider().withSession { harness in
            let file = try await harness.put("/empty.txt", Data())
            let id = try #require(file["id"] as? String)
            let patched = try await harness.send(
                .patch, "/v1.0/me/drive/items/\(id)",
                json: ["fileSystemInfo": ["lastModifiedDateTime": "2019-05-06T07:08:09Z"]])
            #expect(patched.status == 200, "\(OneDriveHarness.text(patched))")
            let info = try OneDriveHarness.object(patched)["fileSystemInfo"] as? [String: Any]
            #expect(info?["lastModifiedDateTime"] as? String == "2019-05-06T07:08:09.000Z")
            let read = try await harness.item("/empty.txt")
            #expect(
                (read["fileSystemInfo"] as? [String: Any])?["lastModifiedDateTime"] as? String
                    == "2019-05-06T07:08:09.000Z")
            let bad = try await harness.send(
                .patch, "/v1.0/me/drive/items/\(id)", json: ["fileSystemInfo": ["lastModifiedDateTime": "yesterday"]])
            #expect(bad.status == 400)
        }
    }

    @Test("POST /copy answers 202 with a monitor that reports completed and the copy's id")
    func copy() async throws {
        try await OneDriveMockProvider().withSession { harness in
            let content = OneDriveHarness.bytes(4000)
            let source = try await harness.put("/src/data.bin", content)
            let id = try #require(source["id"] as? String)
            try await harness.put("/dst/placeholder.txt", Data("p".utf8))
            let folder = try #require(try await harness.item("/dst")["id"] as? String)

            let accepted = try await harness.send(
                .post, "/v1.0/me/drive/items/\(id)/copy", json: ["parentReference": ["id": folder], "name": "copy.bin"])
            #expect(accepted.status == 202, "\(OneDriveHarness.text(accepted))")
            let monitor = try #require(accepted.headers["Location"].flatMap(URL.init(string:)))
            #expect(monitor.port == harness.contentURL?.port)
            let status = try OneDriveHarness.object(try await harness.send(.get, absolute: monitor))
            #expect(status["status"] as? String == "completed")
            let copyID = try #require(status["resourceId"] as? String)
            #expect(copyID != id)
            #expect(try await harness.item("/dst/copy.bin")["id"] as? String == copyID)
            #expect(try await harness.download("/v1.0/me/drive/root:/dst/copy.bin:").body == content)
            #expect(try await harness.download("/v1.0/me/drive/root:/src/data.bin:").body == content)

            let again = try await harness.send(
                .post, "/v1.0/me/drive/items/\(id)/copy", json: ["parentReference": ["id": folder], "name": "copy.bin"])
            #expect(again.status == 409)
            let renamed = try await harness.send(
                .post, "/v1.0/me/drive/items/\(id)/copy?@microsoft.graph.conflictBehavior=rename",
                json: ["parentReference": ["id": folder], "name": "copy.bin"])
            #expect(renamed.status == 202)
            #expect(try await harness.item("/dst/copy 1.bin")["size"] as? Int == content.count)
        }
    }
}
