import Foundation
import Stratus
import StratusAdapterKit
import StratusTestSupport
import Testing

/// The adapter state file: private (0600 in a folder made 0700), replaced whole, named safely
/// whatever the server's id, and refused with `localFile` when it holds something else.
@Suite struct AdapterStateFileTests {
    private struct State: Codable, Equatable {
        var paths: [String: String]
    }

    @Test func aWrittenStateIsReadBackFromAPrivateFile() async throws {
        let temporary = try TemporaryFolder()
        defer { temporary.remove() }
        let folder = temporary.url.appending(path: "state", directoryHint: .isDirectory)
        let file = AdapterStateFile(folder: folder, name: "drive-root1.json")
        #expect(try await file.read(State.self) == nil, "no file yet")
        try await file.write(State(paths: ["A": "a.txt"]))
        try await file.write(State(paths: ["A": "a.txt", "B": "b.txt"]))
        #expect(try await file.read(State.self) == State(paths: ["A": "a.txt", "B": "b.txt"]))
        let fileMode = try FileManager.default.attributesOfItem(atPath: file.url.path)[.posixPermissions] as? NSNumber
        let folderMode = try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? NSNumber
        #expect(fileMode?.intValue == 0o600)
        #expect(folderMode?.intValue == 0o700)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["drive-root1.json"])
    }

    @Test func aNameFromAServerStaysInTheFolder() throws {
        let folder = URL(filePath: "/state", directoryHint: .isDirectory)
        #expect(AdapterStateFile(folder: folder, name: "../../etc/passwd").url.path == "/state/_.._.._etc_passwd")
        #expect(AdapterStateFile(folder: folder, name: ".hidden").url.path == "/state/_.hidden")
    }

    @Test func somethingElseInTheFileIsALocalFileError() async throws {
        let temporary = try TemporaryFolder()
        defer { temporary.remove() }
        let file = AdapterStateFile(folder: temporary.url, name: "state.json")
        try Data("not json".utf8).write(to: file.url)
        let error = await #expect(throws: ServiceError.self) { try await file.read(State.self) }
        #expect(error?.code == .localFile)
    }
}
