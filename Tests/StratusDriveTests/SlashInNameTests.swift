import Foundation
import Stratus
import StratusDrive
import Testing

/// A Drive name with `/`, written by another client: one entry whose path uses `∕` (U+2215),
/// never a file in a nested folder.
@Suite struct SlashInNameTests {
    @Test func aSlashInANameIsOneEntryNotANestedFile() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService()
            let root = fixture.server.appDataFolderID
            _ = try await fixture.createDirectly(name: "saves/slot-1.json", parent: root, content: "slashed")

            let listed = try await service.list(.root)
            #expect(listed.map(\.path.string) == ["saves\u{2215}slot-1.json"])
            let path = try RemotePath("saves\u{2215}slot-1.json")
            #expect(path.components.count == 1)
            let destination = FileManager.default.temporaryDirectory.appending(path: "drive-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: destination) }
            _ = try await service.download(path, to: destination)
            #expect(try Data(contentsOf: destination) == Data("slashed".utf8))
            // The nested path it used to be confused with names nothing.
            await #expect(throws: ServiceError.self) {
                try await service.metadata(of: try RemotePath("saves/slot-1.json"))
            }
            // Writing the mapped path updates that file rather than making another.
            let written = try await service.upload(from: .bytes(Data("new".utf8)), to: path)
            #expect(written.id == listed.first?.id)
        }
    }
}
