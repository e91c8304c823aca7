import Foundation
import Stratus
import Testing

@testable import StratusOneDrive

/// A service rooted at a folder of the drive makes the missing folders of its root and leaves
/// the existing ones (and what they hold) alone.
@Suite struct FolderRootTests {
    @Test func makingTheRootKeepsAnExistingParentAndItsFiles() async throws {
        try await MockFixture.withRunning { fixture in
            let games = try fixture.makeService(root: .folder("Games"))
            let kept = try await games.upload(from: .bytes(Data("keep me".utf8)), to: RemotePath("readme.txt"))
            let saves = try fixture.makeService(root: .folder("Games/Saves"))
            let token = try await saves.latestChangeToken()
            _ = try await saves.upload(from: .bytes(Data("slot".utf8)), to: RemotePath("slot-1.json"))
            #expect(try await games.metadata(of: RemotePath("readme.txt")).version == kept.version)
            #expect(try await games.list(.root).map(\.path.string).sorted() == ["Saves/slot-1.json", "readme.txt"])
            let page = try await saves.changes(since: token)
            #expect(page.changes.map(\.path.string) == ["slot-1.json"])
        }
    }
}
