import Foundation
import Stratus
import StratusDrive
import StratusTestSupport
import Testing

/// The reviewer's case of issue 37: records deleted on another device, a sync that stops
/// before saving the token (a mass-deletion stop, a killed process), and the same page read
/// again, which must name the deletions again.
@Suite struct ChangeFeedReReadTests {
    /// The roots where Drive reports a delete by id alone (`removed: true`).
    static let permanentRoots: [DriveRoot] = [.appDataFolder, .folder("Games/Saves")]

    @Test(arguments: permanentRoots)
    func deletionsByAnotherDeviceAreNamedOnEveryRead(_ root: DriveRoot) async throws {
        try await MockFixture.withRunning { fixture in
            let device = try fixture.makeService(root: root, pageSize: 10, deleteMode: .permanent)
            var paths: [RemotePath] = []
            for index in 0..<30 {
                let path = try RemotePath("records/r\(index).json")
                _ = try await device.upload(from: .bytes(Data("record \(index)".utf8)), to: path)
                paths.append(path)
            }
            let token = try await device.latestChangeToken()
            let other = try fixture.makeService(root: root, deleteMode: .permanent)
            for path in paths.prefix(27) { try await other.delete(path) }

            let first = try await Self.allChanges(device, since: token)
            let second = try await Self.allChanges(device, since: token)
            #expect(Set(first.compactMap(Self.deletedPath)) == Set(paths.prefix(27)), "\(first)")
            #expect(second == first)
        }
    }

    @Test(arguments: permanentRoots)
    func aNewProcessReadingTheSameTokenNamesTheDeletionsToo(_ root: DriveRoot) async throws {
        try await MockFixture.withRunning { fixture in
            let temporary = try TemporaryFolder()
            defer { temporary.remove() }
            let state = temporary.url.appending(path: "state", directoryHint: .isDirectory)
            let device = try fixture.makeService(root: root, pageSize: 10, deleteMode: .permanent, stateFolder: state)
            var paths: [RemotePath] = []
            for index in 0..<12 {
                let path = try RemotePath("records/r\(index).json")
                _ = try await device.upload(from: .bytes(Data("record \(index)".utf8)), to: path)
                paths.append(path)
            }
            let token = try await device.latestChangeToken()
            let other = try fixture.makeService(root: root, deleteMode: .permanent)
            for path in paths.prefix(9) { try await other.delete(path) }
            let first = try await Self.allChanges(device, since: token)
            #expect(Set(first.compactMap(Self.deletedPath)) == Set(paths.prefix(9)), "\(first)")

            // The process is killed before it saves the next token; a new one reads it again.
            let restarted = try fixture.makeService(
                root: root, pageSize: 10, deleteMode: .permanent, stateFolder: state)
            #expect(try await Self.allChanges(restarted, since: token) == first)

            let files = try FileManager.default.contentsOfDirectory(atPath: state.path)
            #expect(
                files.count == 1 && files.allSatisfy { $0.hasPrefix("drive-") && $0.hasSuffix(".json") }, "\(files)")
            for file in files {
                let attributes = try FileManager.default.attributesOfItem(atPath: state.appending(path: file).path)
                #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            }
        }
    }

    @Test func aDeletionIsNamedAgainWhenAnotherEntryMovedAheadOfIt() async throws {
        try await MockFixture.withRunning { fixture in
            let device = try fixture.makeService()
            let (kept, doomed) = (try RemotePath("records/kept.json"), try RemotePath("records/doomed.json"))
            _ = try await device.upload(from: .bytes(Data("kept".utf8)), to: kept)
            _ = try await device.upload(from: .bytes(Data("doomed".utf8)), to: doomed)
            let token = try await device.latestChangeToken()
            let other = try fixture.makeService()
            _ = try await other.upload(from: .bytes(Data("kept, second".utf8)), to: kept)
            try await other.delete(doomed)
            let first = try await Self.allChanges(device, since: token)
            #expect(first.compactMap(Self.deletedPath) == [doomed], "\(first)")

            // Drive lists each file once, at its newest change: the rewrite moves behind the
            // deletion, which is now the page's first entry.
            _ = try await other.upload(from: .bytes(Data("kept, third".utf8)), to: kept)
            let second = try await Self.allChanges(device, since: token)
            #expect(second.first == .deleted(doomed), "\(second)")
            #expect(second.compactMap(Self.deletedPath) == [doomed], "\(second)")
        }
    }

    /// Every change since a token, following the pages.
    static func allChanges(_ service: DriveService, since token: ChangeToken) async throws -> [Change] {
        var changes: [Change] = []
        var token = token
        while true {
            let page = try await service.changes(since: token)
            changes += page.changes
            token = page.nextToken
            if !page.hasMore { return changes }
        }
    }

    /// The path of a deletion.
    static func deletedPath(_ change: Change) -> RemotePath? {
        if case .deleted(let path) = change { return path }
        return nil
    }
}
