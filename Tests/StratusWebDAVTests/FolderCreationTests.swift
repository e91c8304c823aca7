import Foundation
import MockNextcloud
import MockSupport
import Stratus
import Testing

@testable import StratusWebDAV

/// Folders are made bottom up: a write below folders that exist costs one MKCOL, however deep,
/// and only missing folders are made (against the Nextcloud mock, which answers 409 for a
/// missing parent as RFC 4918 says).
@Suite struct FolderCreationTests {
    @Test func onlyTheMissingFoldersAreMadeBottomUp() async throws {
        let folder = "folders-\(UUID().uuidString.prefix(8))"
        let log = try await NextcloudMockServer.running().server.requestLog
        func folderMKCOLs(after start: Int) -> [String] {
            log.entries.dropFirst(start).filter { $0.method == "MKCOL" && $0.path.contains("/\(folder)/") }
                .filter { !$0.path.contains("/.stratus") }
                .map { String($0.path.split(separator: "/\(folder)/", maxSplits: 1).last ?? "") }
        }

        let first = try await NextcloudMockServer.makeService(folder: folder)
        var start = log.count
        _ = try await first.upload(from: .bytes(Data("one".utf8)), to: try RemotePath("a/b/c/one.txt"))
        // Up until a parent exists (the service's own folder), then down.
        #expect(folderMKCOLs(after: start) == ["a/b/c/", "a/b/", "a/", "a/b/", "a/b/c/"])

        // A new instance knows no folder: a sibling of c is one MKCOL, not one per level.
        let second = try await NextcloudMockServer.makeService(folder: folder)
        start = log.count
        _ = try await second.upload(from: .bytes(Data("two".utf8)), to: try RemotePath("a/b/d/two.txt"))
        #expect(folderMKCOLs(after: start) == ["a/b/d/"])
        #expect(try await read(second, "a/b/d/two.txt") == Data("two".utf8))
        #expect(try await read(second, "a/b/c/one.txt") == Data("one".utf8))
    }

    @Test func aFileInTheWayOfAFolderIsAConflict() async throws {
        let folder = "folders-\(UUID().uuidString.prefix(8))"
        let service = try await NextcloudMockServer.makeService(folder: folder)
        _ = try await service.upload(from: .bytes(Data("file".utf8)), to: try RemotePath("plain"))
        await #expect {
            _ = try await service.upload(from: .bytes(Data("below".utf8)), to: try RemotePath("plain/below/x.txt"))
        } throws: { error in
            (error as? ServiceError)?.code == .conflict
        }
        #expect(try await read(service, "plain") == Data("file".utf8))
    }

    private func read(_ service: WebDAVService, _ path: String) async throws -> Data {
        let destination = FileManager.default.temporaryDirectory.appending(path: "stratus-folders-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: destination) }
        _ = try await service.download(try RemotePath(path), to: destination)
        return try Data(contentsOf: destination)
    }
}
