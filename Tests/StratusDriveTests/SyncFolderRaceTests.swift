import Foundation
import Stratus
import StratusDrive
import StratusSync
import StratusTestSupport
import Testing

/// Two devices whose first syncs run at once on Drive with a folder root: both stores create the
/// root folder (the gate lets both creates through), and still meet, each seeing the other's
/// record after its next sync.
@Suite struct SyncFolderRaceTests {
    private struct Progress: Codable, Equatable {
        var level: Int
    }

    @Test func twoStoresWhoseFirstSyncsRunAtOnceMeet() async throws {
        let gate = CreateGate()
        try await MockFixture.withRunning(front: { $0.add(middleware: gate.middleware) }) { fixture in
            let temporary = try TemporaryFolder()
            defer { temporary.remove() }
            let root = DriveRoot.folder("Games/Saves")
            let stores = try ["A", "B"].map { name in
                try SyncStore(
                    folder: temporary.url.appending(path: name, directoryHint: .isDirectory),
                    service: try fixture.makeService(root: root))
            }
            defer { for store in stores { store.close() } }
            let keys = try ["A", "B"].map { try RecordKey(type: "progress", id: "device-\($0)") }
            for (store, key) in zip(stores, keys) { try store.save(Progress(level: 1), as: key) }
            await gate.arm()
            async let first = stores[0].sync()
            async let second = stores[1].sync()
            _ = try await (first, second)
            #expect(await gate.held == 2, "both first syncs created the root folder (the race happened)")

            for store in stores { _ = try await store.sync() }
            for store in stores {
                for key in keys { #expect(try store.record(key) != nil, "\(key) reached every device") }
            }
        }
    }
}
