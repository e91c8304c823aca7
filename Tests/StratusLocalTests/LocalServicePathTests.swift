import Foundation
import Stratus
import StratusLocal
import StratusTestSupport
import Testing

@Suite struct LocalServicePathTests {
    @Test func theStateFolderIsRefusedForEveryCall() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-local-tests")
        defer { folder.remove() }
        let service = try folder.service()
        let inside = try RemotePath(".stratus/changes.jsonl")
        let state = try RemotePath(".stratus")

        await expectServiceError(.invalidPath) { try await service.upload(from: .bytes(Data("x".utf8)), to: inside) }
        await expectServiceError(.invalidPath) { try await service.upload(from: .bytes(Data("x".utf8)), to: state) }
        await expectServiceError(.invalidPath) { try await service.metadata(of: inside) }
        await expectServiceError(.invalidPath) { try await service.list(state) }
        await expectServiceError(.invalidPath) { try await service.delete(inside) }
        await expectServiceError(.invalidPath) { try await service.download(inside, to: folder.file("out")) }
        await expectServiceError(.invalidPath) { try await service.versions(of: inside) }

        _ = try await service.upload(from: .bytes(Data("visible".utf8)), to: try RemotePath("save.json"))
        let listed = try await service.list(.root)
        #expect(listed.map(\.path.string) == ["save.json"])
        // The journal was not touched through the API: it still has its header and one change.
        let journal = try String(contentsOf: folder.root.appending(path: ".stratus/changes.jsonl"), encoding: .utf8)
        #expect(journal.split(separator: "\n").count == 2)
    }

    @Test func aNameLongerThan255BytesIsRefused() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-local-tests")
        defer { folder.remove() }
        let service = try folder.service()
        let error = await expectServiceError(.invalidPath) {
            try await service.upload(from: .bytes(Data()), to: try RemotePath(String(repeating: "é", count: 128)))
        }
        #expect(error?.message.contains("256 bytes") == true)
    }

    @Test func filesAreVisibleAtTheirRealPaths() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-local-tests")
        defer { folder.remove() }
        let service = try folder.service()
        _ = try await service.upload(from: .bytes(Data("slot one".utf8)), to: try RemotePath("saves/slot 1.json"))
        let visible = folder.root.appending(path: "saves/slot 1.json")
        #expect(try Data(contentsOf: visible) == Data("slot one".utf8))

        try await service.delete(try RemotePath("saves/slot 1.json"))
        #expect(!FileManager.default.fileExists(atPath: visible.path))
    }

    @Test func aWriteBelowAFileIsAConflictAndCreatesNoFolder() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-local-tests")
        defer { folder.remove() }
        let service = try folder.service()
        _ = try await service.upload(from: .bytes(Data("file".utf8)), to: try RemotePath("a/file.txt"))

        await expectServiceError(.conflict) {
            try await service.upload(from: .bytes(Data("child".utf8)), to: try RemotePath("a/file.txt/b/child.txt"))
        }
        var isFolder: ObjCBool = false
        #expect(
            FileManager.default.fileExists(
                atPath: folder.root.appending(path: "a/file.txt").path, isDirectory: &isFolder))
        #expect(!isFolder.boolValue)
        #expect(try await service.list(.root).map(\.path.string) == ["a/file.txt"])
    }

    @Test func aRefusedWriteLeavesNoNewFolderBehind() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-local-tests")
        defer { folder.remove() }
        let service = try folder.service()
        await expectServiceError(.conflict) {
            try await service.upload(
                from: .bytes(Data("x".utf8)), to: try RemotePath("new/deep/file.txt"),
                options: UploadOptions(precondition: .mustMatch(VersionID("7")))
            )
        }
        #expect(!FileManager.default.fileExists(atPath: folder.root.appending(path: "new").path))
        await expectServiceError(.notFound) { try await service.list(try RemotePath("new")) }
    }

    @Test func filesPutThereByHandAreNotListed() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-local-tests")
        defer { folder.remove() }
        let service = try folder.service()
        _ = try await service.upload(from: .bytes(Data("tracked".utf8)), to: try RemotePath("tracked.txt"))
        try Data("stray".utf8).write(to: folder.root.appending(path: "stray.txt"))
        #expect(try await service.list(.root).map(\.path.string) == ["tracked.txt"])
        await expectServiceError(.notFound) { try await service.metadata(of: try RemotePath("stray.txt")) }
    }

    @Test func aMissingSourceFileIsALocalFileError() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-local-tests")
        defer { folder.remove() }
        let service = try folder.service()
        let error = await expectServiceError(.localFile) {
            try await service.upload(from: .file(folder.file("no-such-file")), to: try RemotePath("x.txt"))
        }
        #expect(error?.message.contains("does not exist") == true)
    }

    @Test func aRootWhoseParentIsMissingIsRefused() throws {
        let folder = try TemporaryFolder(prefix: "stratus-local-tests")
        defer { folder.remove() }
        #expect {
            try LocalService(root: folder.url.appending(path: "missing/root"))
        } throws: { error in
            (error as? ServiceError)?.code == .invalidConfiguration
        }
    }
}
