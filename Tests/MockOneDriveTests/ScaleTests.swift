import Foundation
import MockSupport
import StratusDigest
import StratusHTTP
import Testing

@testable import MockOneDrive

@Suite("Graph mock at 100,000 items")
struct ScaleTests {
    static let count = 100_000

    /// Fills the app folder with `count` files straight through the store (one shared blob).
    static func populate(_ server: MockOneDriveServer) throws {
        let blob = try server.blobs.store(Array("x".utf8))
        let hasher = QuickXorHash()
        Array("x".utf8).withUnsafeBytes { hasher.update($0) }
        let quickXor = QuickXorHash.base64(hasher.finalize())
        try server.store.withState { (state: inout GraphState) throws(GraphFailure) in
            guard let app = state.appRoot() else { throw .itemNotFound() }
            for index in 0..<count {
                _ = try state.writeFile(
                    in: app.id, name: String(format: "file-%06d.bin", index), existingID: nil, blob: blob,
                    quickXorHash: quickXor, conflict: .fail, condition: WriteCondition(), quota: nil)
            }
        }
    }

    @Test("lookups, the last children page, a late delta page and a write answer as at one item")
    func largeFolder() async throws {
        try await OneDriveHarness.with(options: .init(quotaBytes: nil)) { harness in
            let clock = ContinuousClock()
            let filled = try clock.measure { try Self.populate(harness.server) }
            var figures = ["populate \(Self.count): \(filled)"]

            let lookup = try await clock.measure {
                let item = try await harness.send(.get, "/v1.0/me/drive/special/approot:/file-099999.bin")
                #expect(item.status == 200)
            }
            figures.append("GET by path: \(lookup)")

            let last = "file-099989.bin"
            let token = Data(last.utf8).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            let page = try await clock.measure {
                let response = try await harness.send(
                    .get, "/v1.0/me/drive/special/approot/children?$top=200&$skiptoken=\(token)")
                let names = (try OneDriveHarness.object(response)["value"] as? [[String: Any]])?.compactMap {
                    $0["name"] as? String
                }
                #expect(names?.count == 10)
                #expect(names?.last == "file-099999.bin")
            }
            figures.append("last children page: \(page)")

            let latest = try OneDriveHarness.object(
                try await harness.send(.get, "/v1.0/me/drive/special/approot/delta?token=latest"))
            let deltaLink = try #require((latest["@odata.deltaLink"] as? String).flatMap(URL.init(string:)))
            try await harness.put("/Apps/Stratus/file-050000.bin", Data("changed".utf8))
            let delta = try await clock.measure {
                let response = try await harness.send(.get, absolute: deltaLink, token: harness.token)
                let names = (try OneDriveHarness.object(response)["value"] as? [[String: Any]])?.compactMap {
                    $0["name"] as? String
                }
                #expect(names == ["file-050000.bin"])
            }
            figures.append("delta after one change: \(delta)")

            let write = try await clock.measure {
                try await harness.put("/Apps/Stratus/new.bin", Data("n".utf8))
            }
            figures.append("PUT a new file: \(write)")

            let first = try await clock.measure {
                let response = try await harness.send(.get, "/v1.0/me/drive/special/approot/delta?$top=1000")
                #expect((try OneDriveHarness.object(response)["value"] as? [Any])?.count == 1000)
            }
            figures.append("first delta page of 1000: \(first)")
            print("MockOneDrive at \(Self.count) items: " + figures.joined(separator: "; "))
        }
    }
}
