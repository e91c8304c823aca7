import Foundation
import Stratus
import StratusSync
import SyncSimulation
import Testing

/// A store's folders and files hold a user's game data and sync state: they are private (0700
/// folders, 0600 state files, 0400 blobs) whatever the umask, as the token store is, and a
/// store an older version left readable by others is tightened when it opens.
@Suite struct PrivateStoreFilesTests {
    @Test func aStoresFoldersAndFilesArePrivate() async throws {
        let harness = try SyncHarness()
        defer { harness.remove() }
        let a = try harness.device("a")
        try a.save(Save(level: 3), as: key("slot-1"), files: ["thumbnail": harness.file("thumb.png", "pixels")])
        try await a.sync()
        let b = try harness.device("b")
        try await b.sync()
        #expect(try text(of: b.record(key("slot-1")), "thumbnail") == "pixels")

        // The writer's store, and the store that downloaded the record and its blob.
        for device in ["a", "b"] {
            let store = harness.folder.appending(path: "devices/\(device)")
            var checked = 0
            let walker = FileManager.default.enumerator(at: store, includingPropertiesForKeys: nil)
            #expect(try mode(store) == 0o700)
            while let url = walker?.nextObject() as? URL {
                let isFolder = (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) ?? false
                let bits = try mode(url)
                #expect(bits & 0o077 == 0, "\(url.path) is \(String(bits, radix: 8))")
                if isFolder { #expect(bits == 0o700, "\(url.path)") }
                checked += 1
            }
            #expect(checked >= 5, "the state files, the blob folders and the blob")
        }
    }

    @Test func anOlderStoreReadableByOthersIsTightenedWhenItOpens() async throws {
        let harness = try SyncHarness()
        defer { harness.remove() }
        _ = try harness.device("a")
        let store = harness.folder.appending(path: "devices/a")
        let state = store.appending(path: "state.sqlite")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: store.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: state.path)

        _ = try harness.device("a")

        #expect(try mode(store) == 0o700)
        #expect(try mode(state) == 0o600)
    }

    private func mode(_ url: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int) ?? -1
    }
}
