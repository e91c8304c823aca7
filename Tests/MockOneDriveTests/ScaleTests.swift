import Foundation
import MockProviders
import MockSupport
import StratusDigest
import StratusHTTP
import Testing

@testable import MockOneDrive

/// The mock's indexes at a size where a scan per request would show: lookups by path, the last
/// page of a large folder, and a delta read late in a long change log answer as they do at one
/// item. How fast they answer at 100,000 items is measured by the adapter benchmark's mock rows
/// (`Benchmarks/README.md`), not here: a debug build that fills 100,000 items holds a core for
/// seconds while the rest of the suite runs beside it.
@Suite("Graph mock at 10,000 items")
struct ScaleTests {
    static let count = 10_000

    /// Fills the app folder with `count` files straight through the store (one shared blob), a
    /// thousand at a time with a yield between, so the fill never holds a thread of the
    /// cooperative pool for long.
    static func populate(_ server: MockOneDriveServer) async throws {
        let blob = try server.blobs.store(Array("x".utf8))
        let hasher = QuickXorHash()
        Array("x".utf8).withUnsafeBytes { hasher.update($0) }
        let quickXor = QuickXorHash.base64(hasher.finalize())
        for start in stride(from: 0, to: count, by: 1_000) {
            try server.store.withState { (state: inout GraphState) throws(GraphFailure) in
                guard let app = state.appRoot() else { throw .itemNotFound() }
                for index in start..<min(start + 1_000, count) {
                    _ = try state.writeFile(
                        in: app.id, name: name(index), existingID: nil, blob: blob,
                        quickXorHash: quickXor, conflict: .fail, condition: WriteCondition(), quota: nil)
                }
            }
            await Task.yield()
        }
    }

    /// The name of file `index`.
    static func name(_ index: Int) -> String { String(format: "file-%06d.bin", index) }

    @Test("lookups, the last children page, a late delta page and a write answer as at one item")
    func largeFolder() async throws {
        try await OneDriveMockProvider(options: .init(quotaBytes: nil)).withSession { harness in
            try await Self.populate(harness.server)
            let item = try await harness.send(.get, "/v1.0/me/drive/special/approot:/\(Self.name(Self.count - 1))")
            #expect(item.status == 200)

            let last = Self.name(Self.count - 11)
            let token = Data(last.utf8).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            let page = try await harness.send(
                .get, "/v1.0/me/drive/special/approot/children?$top=200&$skiptoken=\(token)")
            let names = (try OneDriveHarness.object(page)["value"] as? [[String: Any]])?.compactMap {
                $0["name"] as? String
            }
            #expect(names?.count == 10)
            #expect(names?.last == Self.name(Self.count - 1))

            let latest = try OneDriveHarness.object(
                try await harness.send(.get, "/v1.0/me/drive/special/approot/delta?token=latest"))
            let deltaLink = try #require((latest["@odata.deltaLink"] as? String).flatMap(URL.init(string:)))
            let changed = Self.name(Self.count / 2)
            try await harness.put("/Apps/Stratus/\(changed)", Data("changed".utf8))
            let delta = try await harness.send(.get, absolute: deltaLink, token: harness.token)
            let changes = (try OneDriveHarness.object(delta)["value"] as? [[String: Any]])?.compactMap {
                $0["name"] as? String
            }
            #expect(changes == [changed])

            try await harness.put("/Apps/Stratus/new.bin", Data("n".utf8))
            let first = try await harness.send(.get, "/v1.0/me/drive/special/approot/delta?$top=1000")
            #expect((try OneDriveHarness.object(first)["value"] as? [Any])?.count == 1000)
        }
    }
}
