import Foundation
import Stratus
import StratusTestSupport
import Testing

@testable import StratusDrive

/// The path ↔ id index: recording, forgetting subtrees, and single-flight folder creation.
@Suite struct PathIndexTests {
    private func path(_ text: String) throws -> RemotePath { try RemotePath(text) }

    @Test func recordsBothDirections() async throws {
        let index = DrivePathIndex()
        await index.record(try path("a"), id: "A", isFolder: true)
        await index.record(try path("a/f.txt"), id: "F", isFolder: false)
        #expect(await index.folderID(try path("a")) == "A")
        #expect(await index.folderID(try path("a/f.txt")) == nil)
        #expect(await index.path(of: "F")?.path == (try path("a/f.txt")))
        #expect(await index.path(of: "F")?.isFolder == false)
    }

    @Test func forgettingAFolderForgetsWhatIsBelow() async throws {
        let index = DrivePathIndex()
        await index.record(try path("a"), id: "A", isFolder: true)
        await index.record(try path("a/b"), id: "B", isFolder: true)
        await index.record(try path("a/b/f"), id: "F", isFolder: false)
        await index.record(try path("ab"), id: "AB", isFolder: true)
        await index.forget("A")
        #expect(await index.folderID(try path("a")) == nil)
        #expect(await index.folderID(try path("a/b")) == nil)
        #expect(await index.path(of: "F") == nil)
        #expect(await index.folderID(try path("ab")) == "AB")
    }

    @Test func aMoveReplacesTheOldPath() async throws {
        let index = DrivePathIndex()
        await index.record(try path("old"), id: "D", isFolder: true)
        await index.record(try path("old/f"), id: "F", isFolder: false)
        await index.record(try path("new"), id: "D", isFolder: true)
        #expect(await index.folderID(try path("old")) == nil)
        #expect(await index.folderID(try path("new")) == "D")
        #expect(await index.path(of: "F") == nil)
    }

    @Test func forgettingAlongAPath() async throws {
        let index = DrivePathIndex()
        await index.record(try path("a"), id: "A", isFolder: true)
        await index.record(try path("a/b"), id: "B", isFolder: true)
        await index.record(try path("c"), id: "C", isFolder: true)
        await index.forgetFolders(along: try path("a/b"))
        #expect(await index.folderID(try path("a")) == nil)
        #expect(await index.folderID(try path("a/b")) == nil)
        #expect(await index.folderID(try path("c")) == "C")
    }

    @Test func concurrentCreationsOfOneFolderShareOneCall() async throws {
        let index = DrivePathIndex()
        let calls = ProgressLog()
        let folder = try path("new/folder")
        let ids = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    try await index.creatingFolder(folder) {
                        calls.add(1)
                        try await Task.sleep(for: .milliseconds(50))
                        return "ID"
                    }
                }
            }
            var ids: [String] = []
            for try await id in group { ids.append(id) }
            return ids
        }
        #expect(ids == Array(repeating: "ID", count: 16))
        #expect(calls.values.count == 1)
        #expect(await index.folderID(folder) == "ID")
    }
}

/// Files the change feed records by their folder's path and their name.
@Suite struct PathIndexFeedEntryTests {
    private func path(_ text: String) throws -> RemotePath { try RemotePath(text) }

    @Test func aFileByFolderAndNameReadsAsItsPath() async throws {
        let index = DrivePathIndex()
        await index.record(try path("a"), id: "A", isFolder: true)
        await index.recordFile(named: "f.txt", in: try path("a"), id: "F")
        #expect(await index.path(of: "F")?.path == (try path("a/f.txt")))
        #expect(await index.path(of: "F")?.isFolder == false)
        #expect(await index.folderID(try path("a/f.txt")) == nil)
    }

    @Test func forgettingOrMovingTheFolderForgetsTheFile() async throws {
        let index = DrivePathIndex()
        await index.record(try path("a"), id: "A", isFolder: true)
        await index.recordFile(named: "f", in: try path("a"), id: "F")
        await index.recordFile(named: "g", in: try path("ab"), id: "G")
        await index.record(try path("b"), id: "A", isFolder: true)
        #expect(await index.path(of: "F") == nil)
        #expect(await index.path(of: "G")?.path == (try path("ab/g")))
        await index.forget("A")
        #expect(await index.folderID(try path("b")) == nil)
    }

    @Test func recordingTheSamePlaceAgainKeepsTheEntry() async throws {
        let index = DrivePathIndex()
        await index.recordFile(named: "f", in: try path("a"), id: "F")
        await index.record(try path("a/f"), id: "F", isFolder: false)
        #expect(await index.path(of: "F")?.path == (try path("a/f")))
        await index.recordFile(named: "renamed", in: try path("a"), id: "F")
        #expect(await index.path(of: "F")?.path == (try path("a/renamed")))
    }
}
