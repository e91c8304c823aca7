import Foundation
import Stratus
import StratusLocal
import StratusTestSupport
import Testing

/// Paths a user or a config can spell (`..`, empty components, NUL and other control
/// characters) are refused with `invalidPath` before the local backend touches the disk, and a
/// leading `/` is relative to the store's root, never to the machine's.
@Suite struct LocalServiceBadPathTests {
    static let refused: [String] = [
        "..", "../outside.txt", "saves/../../outside.txt", "saves/./slot.json", "saves//slot.json", "//outside.txt",
        "saves/", "slot\u{0}.json", "slot\u{1}.json", "slot\t.json", "slot\n.json", "slot\u{1F}.json",
        "slot\u{7F}.json",
    ]

    @Test(arguments: LocalServiceBadPathTests.refused)
    func refusedWithInvalidPathAndNothingWritten(text: String) async throws {
        let folder = try TemporaryFolder(prefix: "stratus-local-tests")
        defer { folder.remove() }
        let service = try folder.service()
        let data = Data("escaped".utf8)

        await expectServiceError(.invalidPath) {
            try await service.upload(from: .bytes(data), to: try RemotePath(text))
        }
        await expectServiceError(.invalidPath) {
            try await service.upload(from: .bytes(data), to: try RemotePath("saves").appending(text))
        }
        await expectServiceError(.invalidPath) { try await service.metadata(of: try RemotePath(text)) }
        await expectServiceError(.invalidPath) { try await service.delete(try RemotePath(text)) }

        // Nothing landed in the store, and nothing next to it.
        #expect(try await service.list(.root).isEmpty)
        let beside = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(beside == ["root"], "\(beside)")
        let journal = try String(contentsOf: folder.root.appending(path: ".stratus/changes.jsonl"), encoding: .utf8)
        #expect(journal.split(separator: "\n").count == 1, "\(journal)")
    }

    @Test func aLeadingSlashIsRelativeToTheStoreRoot() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-local-tests")
        defer { folder.remove() }
        let service = try folder.service()
        let name = "stratus-absolute-\(UUID().uuidString).txt"

        let stored = try await service.upload(from: .bytes(Data("inside".utf8)), to: try RemotePath("/" + name))
        #expect(stored.path.string == name)
        #expect(try Data(contentsOf: folder.root.appending(path: name)) == Data("inside".utf8))
        #expect(!FileManager.default.fileExists(atPath: "/" + name))
        #expect(!FileManager.default.fileExists(atPath: folder.file(name).path))
    }
}
