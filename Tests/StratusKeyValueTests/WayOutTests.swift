import Foundation
import Stratus
import StratusKeyValue
import StratusSync
import SyncSimulation
import Testing

/// The ways out of a replaced remote, from the key-value store itself: one device seeds the
/// remote again, the other adopts it; what the adopting device held is in the archive, listed
/// without knowing its keys, and its changes say it was archived, not deleted.
@Suite struct WayOutTests {
    @Test func oneDeviceSeedsTheWipedRemoteAgainAndTheOtherAdoptsIt() async throws {
        try await KeyValueHarness.with(.local, rules: [.key("highestLevel", .highest)]) { harness in
            let a = try harness.device("a")
            let b = try harness.device("b")
            try a.set(13, forKey: "highestLevel")
            try await a.synchronize()
            try await b.synchronize()
            #expect(b.integer(forKey: "highestLevel") == 13)
            try b.set(7, forKey: "unsynced")

            // The remote folder is wiped (a new account, removed by hand).
            for file in try await harness.service.list(RemotePath("stratus-kv")) {
                try await harness.service.delete(file.path)
            }
            await #expect(throws: SyncError.self) { try await b.synchronize() }

            try await a.reseedRemote()
            try await a.synchronize()
            let changes = b.syncStore.changes()
            try await b.adoptRemote()
            #expect(b.integer(forKey: "highestLevel") == nil, "adopting archives this device's values")
            let archived = try b.syncStore.archivedRecords()
            #expect(archived.contains { $0.reason.contains("adopted") })
            var iterator = changes.makeAsyncIterator()
            let change = await iterator.next()
            #expect(change?.kind == .archived)

            let external = b.externalChanges()
            let changed = try await b.synchronize()
            #expect(changed == ["highestLevel"])
            #expect(b.integer(forKey: "highestLevel") == 13)
            var externalIterator = external.makeAsyncIterator()
            #expect(await externalIterator.next()?.reason == .initialSync)
        }
    }
}
