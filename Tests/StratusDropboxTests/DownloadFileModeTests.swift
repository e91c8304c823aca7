import Foundation
import Stratus
import StratusAdapterKit
import StratusFileSystem
import StratusTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What a download leaves on disk: the destination keeps its mode (a new file gets the umask's),
/// and leftovers of killed downloads do not pile up beside it.
@Suite struct DownloadFileModeTests {
    private static func mode(_ url: URL) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
    }

    @Test func aPrivateFileStaysPrivateAndANewOneGetsTheUmasksMode() async throws {
        let temporaryFolder = try TemporaryFolder(prefix: "stratus-modes")
        defer { temporaryFolder.remove() }
        let folder = temporaryFolder.url
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService()
            let path = try RemotePath("secret.txt")
            _ = try await service.upload(from: .bytes(Data("new content".utf8)), to: path)

            let existing = folder.appending(path: "existing.txt")
            try Data("old".utf8).write(to: existing)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: existing.path)
            _ = try await service.download(path, to: existing)
            #expect(try Data(contentsOf: existing) == Data("new content".utf8))
            #expect(try Self.mode(existing) == 0o600)

            let fresh = folder.appending(path: "fresh.txt")
            _ = try await service.download(path, to: fresh)
            #expect(try Self.mode(fresh) == Int(0o666 & ~FileMode.umask()))
        }
    }

    @Test func leftoversOfKilledDownloadsAreRemovedButNotRunningOnes() async throws {
        let temporaryFolder = try TemporaryFolder(prefix: "stratus-modes")
        defer { temporaryFolder.remove() }
        let folder = temporaryFolder.url
        // Two leftovers of a killed process, one download still running (its file is locked),
        // and a file that merely looks similar.
        let stale = [
            ".save.bin.\(UUID().uuidString).dropbox-download", ".save.bin.\(UUID().uuidString).drive-download",
        ]
        for name in stale { try Data("partial".utf8).write(to: folder.appending(path: name)) }
        let running = folder.appending(path: ".save.bin.\(UUID().uuidString).dropbox-download")
        try Data("in flight".utf8).write(to: running)
        let held = open(running.path, O_RDONLY)
        #expect(flock(held, LOCK_EX | LOCK_NB) == 0)
        defer { close(held) }
        let unrelated = folder.appending(path: ".save.bin.notes-download")
        try Data("mine".utf8).write(to: unrelated)

        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService()
            let path = try RemotePath("save.bin")
            _ = try await service.upload(from: .bytes(Data("save".utf8)), to: path)
            _ = try await service.download(path, to: folder.appending(path: "save.bin"))
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(left == [running.lastPathComponent, unrelated.lastPathComponent, "save.bin"].sorted())
    }
}
