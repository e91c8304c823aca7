import Foundation
import Stratus
import StratusDrive
import StratusHTTP
import Testing

/// Same-named entries in one folder, made behind the adapter's back as another Drive client
/// would: the path means the oldest, every call agrees, and the others are left alone.
@Suite struct MockDuplicateNameTests {
    @Test func theOldestOfSameNamedFilesIsThePath() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService()
            let path = try RemotePath("dup.txt")
            let mine = try await service.upload(from: .bytes(Data("mine".utf8)), to: path)
            let root = fixture.server.appDataFolderID
            let older = try await fixture.createDirectly(
                name: "dup.txt", parent: root, content: "older", created: "2020-01-01T00:00:00.000Z")
            _ = try await fixture.createDirectly(
                name: "dup.txt", parent: root, content: "newer", created: "2099-01-01T00:00:00.000Z")

            #expect(try await service.metadata(of: path).id == older)
            #expect(try await service.list(.root).map(\.id) == [older])
            let destination = FileManager.default.temporaryDirectory.appending(path: "drive-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: destination) }
            _ = try await service.download(path, to: destination)
            #expect(try Data(contentsOf: destination) == Data("older".utf8))

            // Writing the path updates the oldest; the others are untouched.
            let written = try await service.upload(from: .bytes(Data("updated".utf8)), to: path)
            #expect(written.id == older)
            #expect(try await service.versions(of: path).count == 2)
            // Deleting it uncovers the next oldest: the file this service wrote first.
            try await service.delete(path)
            #expect(try await service.metadata(of: path).id == mine.id)
        }
    }

    @Test func equalCreationTimesAreBrokenByID() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService()
            let root = fixture.server.appDataFolderID
            var ids: [String] = []
            for index in 0..<3 {
                ids.append(
                    try await fixture.createDirectly(
                        name: "tie.txt", parent: root, content: "copy \(index)", created: "2021-06-01T12:00:00.000Z"))
            }
            let smallest = try #require(ids.min { $0.utf8.lexicographicallyPrecedes($1.utf8) })
            #expect(try await service.metadata(of: try RemotePath("tie.txt")).id == smallest)
        }
    }
}
