import Foundation
import MockOneDrive
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
        let first = try MockOneDriveServer(storageDirectory: storage.url, persistence: .saved())
        let token = first.authorization.issueTokens().accessToken
        let (id, deltaLink) = try await StratusHTTPClient.withClient { client in
            try await first.withRunning { graphURL, contentURL in
                let harness = OneDriveHarness(
                    server: first, graphURL: graphURL, contentURL: contentURL, client: client, token: token)
                try await harness.put("/Apps/Stratus/keep.txt", Data("one".utf8))
                let item = try await harness.put("/Apps/Stratus/keep.txt", Data("two".utf8))
                try await harness.put("/Apps/Stratus/gone.txt", Data("x".utf8))
                #expect(try await harness.send(.delete, "/v1.0/me/drive/root:/Apps/Stratus/gone.txt").status == 204)
                let latest = try OneDriveHarness.object(
                    try await harness.send(.get, "/v1.0/me/drive/special/approot/delta?token=latest"))
                let link = try #require(latest["@odata.deltaLink"] as? String)
                let path =
                    try #require(URLComponents(string: link)).path + "?" + (URLComponents(string: link)?.query ?? "")
                return (try #require(item["id"] as? String), path)
            }
        }
        try await first.saveState()
        #expect(FileManager.default.fileExists(atPath: storage.url.appending(path: "onedrive-state.json").path))

        let second = try MockOneDriveServer(storageDirectory: storage.url, persistence: .saved())
        let secondToken = second.authorization.issueTokens().accessToken
        #expect(second.driveID == first.driveID)
        try await StratusHTTPClient.withClient { client in
            try await second.withRunning { graphURL, contentURL in
                let harness = OneDriveHarness(
                    server: second, graphURL: graphURL, contentURL: contentURL, client: client, token: secondToken)
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
}
