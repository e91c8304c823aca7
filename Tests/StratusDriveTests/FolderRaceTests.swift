import Foundation
import Hummingbird
import Stratus
import Testing

@testable import StratusDrive

/// Two clients whose first writes create the same folder at once: Drive takes both creates (it
/// allows two folders of one name), and the adapter must end with one folder that every
/// instance resolves, the loser's content in it and the loser trashed.
@Suite struct FolderRaceTests {
    @Test func twoFirstWritesToOneFolderRootMeetInOneFolder() async throws {
        let gate = CreateGate()
        try await MockFixture.withRunning(front: { $0.add(middleware: gate.middleware) }) { fixture in
            let root = DriveRoot.folder("Games/Saves")
            let first = try fixture.makeService(root: root)
            let second = try fixture.makeService(root: root)
            await gate.arm()
            let (a, b) = (try RemotePath("records/a.json"), try RemotePath("records/b.json"))
            async let wroteA = first.upload(from: .bytes(Data("A".utf8)), to: a)
            async let wroteB = second.upload(from: .bytes(Data("B".utf8)), to: b)
            _ = try await (wroteA, wroteB)
            #expect(await gate.held == 2, "both first creates were sent (the race happened)")

            let third = try fixture.makeService(root: root)
            #expect(Set(try await third.list(.root).map(\.path.string)) == ["records/a.json", "records/b.json"])
            for service in [first, second] {
                #expect(try await service.list(.root).count == 2, "every instance resolves the one folder")
            }
            let tops = try await third.children(of: "root", named: "Games").filter(\.isFolder)
            #expect(tops.count == 1, "one untrashed Games folder is left: \(tops.map(\.id))")
        }
    }

    @Test func twoFirstWritesToOneSubfolderMeetInOneFolder() async throws {
        let gate = CreateGate()
        try await MockFixture.withRunning(front: { $0.add(middleware: gate.middleware) }) { fixture in
            let root = DriveRoot.folder("Saves")
            let setup = try fixture.makeService(root: root)
            _ = try await setup.upload(from: .bytes(Data("seed".utf8)), to: try RemotePath("seed.txt"))
            let first = try fixture.makeService(root: root)
            let second = try fixture.makeService(root: root)
            _ = try await (first.list(.root), second.list(.root))
            await gate.arm()
            let (a, b) = (try RemotePath("records/a.json"), try RemotePath("records/b.json"))
            async let wroteA = first.upload(from: .bytes(Data("A".utf8)), to: a)
            async let wroteB = second.upload(from: .bytes(Data("B".utf8)), to: b)
            _ = try await (wroteA, wroteB)
            #expect(await gate.held == 2, "both creates of records were sent (the race happened)")

            for service in [first, second, try fixture.makeService(root: root)] {
                #expect(
                    Set(try await service.list(.root).map(\.path.string)) == [
                        "seed.txt", "records/a.json", "records/b.json",
                    ])
            }
            let rootID = try #require(try await setup.rootFolderID(create: false))
            let folders = try await setup.children(of: rootID, named: "records").filter(\.isFolder)
            #expect(folders.count == 1, "one untrashed records folder is left: \(folders.map(\.id))")
        }
    }
}
