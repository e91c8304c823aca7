import Foundation
import Stratus
import Testing

@testable import StratusDrive

/// What the client whose new folder lost does with content already in it (another client wrote
/// there in the moment between its create and its second look): it all moves into the older
/// folder, a subfolder of the same name merged into the older one's, and the emptied folder goes
/// to the trash.
@Suite struct FolderMergeTests {
    @Test func aLosingFolderWithContentIsMergedIntoTheOlderOne() async throws {
        try await MockFixture.withRunning { fixture in
            let older = try await fixture.createFolderDirectly(
                name: "Saves", parent: "root", created: "2020-01-01T00:00:00.000Z")
            let olderSub = try await fixture.createFolderDirectly(name: "sub", parent: older)
            _ = try await fixture.createDirectly(name: "a.txt", parent: older, content: "a")
            _ = try await fixture.createDirectly(name: "d.txt", parent: olderSub, content: "d")
            let newer = try await fixture.createFolderDirectly(name: "Saves", parent: "root")
            let newerSub = try await fixture.createFolderDirectly(name: "sub", parent: newer)
            _ = try await fixture.createDirectly(name: "b.txt", parent: newer, content: "b")
            _ = try await fixture.createDirectly(name: "c.txt", parent: newerSub, content: "c")

            let service = try fixture.makeService(root: .folder("Saves"))
            let created = try #require(try await service.children(of: "root", named: "Saves").first { $0.id == newer })
            #expect(try await service.settleCreatedFolder(created, named: "Saves", in: "root") == older)

            let listed = try await fixture.makeService(root: .folder("Saves")).list(.root)
            #expect(Set(listed.map(\.path.string)) == ["a.txt", "b.txt", "sub/c.txt", "sub/d.txt"])
            #expect(try await service.children(of: "root", named: "Saves").map(\.id) == [older])
            #expect(try await service.children(of: older, named: "sub").map(\.id) == [olderSub])
            #expect(try await service.fileExists(id: newer) == false, "the losing folder is trashed")
        }
    }
}
