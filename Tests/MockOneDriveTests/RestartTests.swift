import Foundation
import MockOneDrive
import MockProviders
import MockSupport
import StratusHTTP
import StratusTestSupport
import Testing

@Suite("Graph mock: the saved state survives a restart")
struct RestartTests {
    @Test("items, ids, versions, contents and delta tokens carry over to a mock on the same folder")
    func restart() async throws {
        let storage = try TemporaryFolder(prefix: "mockonedrive-restart")
        defer { storage.remove() }
        let (id, deltaLink, driveID) = try await OneDriveMockProvider().withSession(in: storage.url) { harness in
            try await harness.put("/Apps/Stratus/keep.txt", Data("one".utf8))
            let item = try await harness.put("/Apps/Stratus/keep.txt", Data("two".utf8))
            try await harness.put("/Apps/Stratus/gone.txt", Data("x".utf8))
            #expect(try await harness.send(.delete, "/v1.0/me/drive/root:/Apps/Stratus/gone.txt").status == 204)
            let latest = try OneDriveHarness.object(
                try await harness.send(.get, "/v1.0/me/drive/special/approot/delta?token=latest"))
            let link = try #require(latest["@odata.deltaLink"] as? String)
            let path = try #require(URLComponents(string: link)).path + "?" + (URLComponents(string: link)?.query ?? "")
            return (try #require(item["id"] as? String), path, harness.server.driveID)
        }
        #expect(FileManager.default.fileExists(atPath: storage.url.appending(path: "onedrive-state.json").path))

        try await OneDriveMockProvider().withSession(in: storage.url) { harness in
            #expect(harness.server.driveID == driveID)
            let item = try OneDriveHarness.object(try await harness.send(.get, "/v1.0/me/drive/items/\(id)"))
            #expect(item["name"] as? String == "keep.txt")
            let versions = try OneDriveHarness.object(
                try await harness.send(.get, "/v1.0/me/drive/items/\(id)/versions"))
            #expect((versions["value"] as? [Any])?.count == 2)
            #expect(try await harness.download("/v1.0/me/drive/items/\(id)").body == Data("two".utf8))
            #expect(try await harness.send(.get, "/v1.0/me/drive/root:/Apps/Stratus/gone.txt").status == 404)
            try await harness.put("/Apps/Stratus/after.txt", Data("a".utf8))
            let changes = try OneDriveHarness.object(try await harness.send(.get, deltaLink))
            let names = (changes["value"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
            #expect(names == ["after.txt"])
        }
    }
}
