import Foundation
import Hummingbird
import MockOAuth
import MockProviders
import MockSupport
import StratusHTTP
import StratusTestSupport
import Testing

@testable import MockDrive

@Suite("Restarting the Drive mock on the same storage folder")
struct DriveRestartTests {
    /// A mock on `folder`, not started, to see what it makes of the folder.
    static func server(in folder: URL, _ persistence: StatePersistence = .saved()) throws -> MockDriveServer {
        try DriveMockProvider().build(storage: folder, settings: MockServerSettings(persistence: persistence)).server
    }

    /// The state file of a mock on `folder`.
    static func stateFile(in folder: URL) -> URL { folder.appendingPathComponent("drive-state.json") }

    /// What the first server left, to compare with what the second one answers.
    struct Before: Sendable {
        var rootID: String
        var fileID: String
        var folderID: String
        var headRevisionID: String
        var revisionIDs: [String]
        var md5: String
        var version: Int
        var startToken: String
        var changedIDs: Set<String>
        var listToken: String
        var deletedID: String
    }

    @Test("Ids, metadata, revisions, contents, the change log and page tokens survive a restart")
    func everythingSurvives() async throws {
        try await withTemporaryFolder(prefix: "drive-restart") { folder in
            let data = folder.appendingPathComponent("data")
            let before = try await DriveMockProvider().withSession(in: data) { harness in
                let start = try #require(
                    try DriveHarness.object(try await harness.send(.get, "/drive/v3/changes/startPageToken"))[
                        "startPageToken"] as? String)
                let folderID = try await harness.createFolder("Saves")
                let file = try await harness.createFile(
                    "slot.sav", Data("one".utf8), parent: folderID, appProperties: ["slot": "1"])
                let fileID = try #require(file["id"] as? String)
                let updated = try DriveHarness.object(
                    try await harness.send(
                        .patch, "/upload/drive/v3/files/\(fileID)", query: [("uploadType", "media"), ("fields", "*")],
                        body: Data("two".utf8), headers: [("Content-Type", "text/plain")]))
                try await harness.createFile("other.sav", Data("other".utf8), parent: folderID)
                let doomed = try #require(try await harness.createFile("doomed.txt", Data("x".utf8))["id"] as? String)
                #expect(try await harness.send(.delete, "/drive/v3/files/\(doomed)").status == 204)
                let revisions = try DriveHarness.object(
                    try await harness.send(.get, "/drive/v3/files/\(fileID)/revisions"))
                let page = try DriveHarness.object(
                    try await harness.send(
                        .get, "/drive/v3/files",
                        query: [("q", "'\(folderID)' in parents"), ("orderBy", "name"), ("pageSize", "1")]))
                let (changes, _, _) = try await ChangeTests.drain(harness, from: start)
                return Before(
                    rootID: harness.server.rootFolderID, fileID: fileID, folderID: folderID,
                    headRevisionID: try #require(updated["headRevisionId"] as? String),
                    revisionIDs: (revisions["revisions"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String },
                    md5: try #require(updated["md5Checksum"] as? String),
                    version: try #require(Int(updated["version"] as? String ?? "")), startToken: start,
                    changedIDs: Set(changes.compactMap { $0["fileId"] as? String }),
                    listToken: try #require(page["nextPageToken"] as? String), deletedID: doomed)
            }
            #expect(before.revisionIDs.count == 2)
            #expect(before.changedIDs.count == 4)
            let attributes = try FileManager.default.attributesOfItem(atPath: Self.stateFile(in: data).path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

            try await DriveMockProvider().withSession(in: data) { harness in
                #expect(harness.server.rootFolderID == before.rootID)
                let file = try DriveHarness.object(
                    try await harness.send(.get, "/drive/v3/files/\(before.fileID)", query: [("fields", "*")]))
                #expect(file["name"] as? String == "slot.sav")
                #expect(file["parents"] as? [String] == [before.folderID])
                #expect(file["headRevisionId"] as? String == before.headRevisionID)
                #expect(file["md5Checksum"] as? String == before.md5)
                #expect(file["appProperties"] as? [String: String] == ["slot": "1"])
                #expect(file["version"] as? String == String(before.version))
                let content = try await harness.send(
                    .get, "/drive/v3/files/\(before.fileID)", query: [("alt", "media")])
                #expect(String(decoding: content.body, as: UTF8.self) == "two")
                let revisions = try DriveHarness.object(
                    try await harness.send(.get, "/drive/v3/files/\(before.fileID)/revisions"))
                #expect(
                    (revisions["revisions"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
                        == before.revisionIDs)
                let old = try await harness.send(
                    .get, "/drive/v3/files/\(before.fileID)/revisions/\(before.revisionIDs[0])",
                    query: [("alt", "media")])
                #expect(String(decoding: old.body, as: UTF8.self) == "one")
                #expect(try await harness.send(.get, "/drive/v3/files/\(before.deletedID)").status == 404)

                // files.list's page token from before the restart reads the second page.
                let second = try DriveHarness.object(
                    try await harness.send(
                        .get, "/drive/v3/files",
                        query: [
                            ("q", "'\(before.folderID)' in parents"), ("orderBy", "name"), ("pageSize", "1"),
                            ("pageToken", before.listToken),
                        ]))
                #expect((second["files"] as? [[String: Any]])?.first?["name"] as? String == "slot.sav")

                // The change log: the same changes from the old token, then a write after the
                // restart, seen from it too.
                let (same, _, newStart) = try await ChangeTests.drain(harness, from: before.startToken)
                #expect(Set(same.compactMap { $0["fileId"] as? String }) == before.changedIDs)
                let renamed = try DriveHarness.object(
                    try await harness.send(
                        .patch, "/drive/v3/files/\(before.fileID)", query: [("fields", "version")],
                        json: ["name": "renamed.sav"]))
                #expect(try #require(Int(renamed["version"] as? String ?? "")) > before.version)
                let (after, _, _) = try await ChangeTests.drain(harness, from: newStart)
                #expect(after.compactMap { $0["fileId"] as? String } == [before.fileID])
                let created = try await harness.createFile("new.sav", Data("new".utf8), parent: before.folderID)
                #expect(created["id"] as? String != before.fileID)
            }
        }
    }

    @Test(
        "A state file that cannot be read stops the server from starting, naming the file",
        arguments: [
            ("garbage", "not a state file at all", PersistentStateError.Code.notAStateFile),
            ("newer", "stratus-mock-state drive 2\n{}", .unsupportedVersion),
            ("other mock", "stratus-mock-state dropbox 1\n{}", .otherMock),
            ("truncated", "stratus-mock-state drive 1\n{\"rootID\": \"abc", .corrupt),
            (
                "no roots",
                "stratus-mock-state drive 1\n{\"rootID\": \"a\", \"appDataID\": \"b\", \"nodes\": [], \"changes\": [], "
                    + "\"nextSequence\": 1, \"versionCounter\": 1, \"serialCounter\": 0}", .corrupt
            ),
        ])
    func unreadableStateIsRefused(name: String, content: String, code: PersistentStateError.Code) throws {
        try withTemporaryFolder(prefix: "drive-restart") { folder in
            let stateFile = Self.stateFile(in: folder)
            try Data(content.utf8).write(to: stateFile)
            let error = try #require(throws: PersistentStateError.self) { try Self.server(in: folder) }
            #expect(error.code == code, "\(name): \(error)")
            #expect(error.description.contains(stateFile.path))
            #expect(try String(contentsOf: stateFile, encoding: .utf8) == content)
        }
    }

    @Test("A store of 11,000 files is saved and loaded (times printed, not asserted)")
    func largeStore() async throws {
        try await withTemporaryFolder(prefix: "drive-restart") { folder in
            let server = try Self.server(in: folder, .saved(delay: .seconds(3600)))
            let persistence = try #require(server.persistence)
            let blob = try BlobStore(root: folder).store(Array("the same bytes".utf8))
            try server.fill(files: 11_000, folders: 100, blob: blob)
            let saveStart = ContinuousClock.now
            try await persistence.flush()
            let saved = ContinuousClock.now - saveStart
            let size =
                (try FileManager.default.attributesOfItem(atPath: Self.stateFile(in: folder).path)[.size] as? NSNumber)?
                .intValue
            let loadStart = ContinuousClock.now
            let reloaded = try Self.server(in: folder)
            let loaded = ContinuousClock.now - loadStart
            #expect(reloaded.nodeCount == 11_102)
            print("Drive mock, 11,000 files: saved in \(saved), loaded in \(loaded), \(size ?? 0) bytes")
        }
    }
}

extension MockDriveServer {
    /// Creates `files` files spread over `folders` folders, all holding `blob`, straight in the
    /// store (what thousands of uploads would leave).
    func fill(files: Int, folders: Int, blob: BlobInfo) throws {
        let content = StoredContent(blob: blob, sha1: String(repeating: "0", count: 40))
        try store.withState { state throws(DriveFailure) in
            var folderIDs: [String] = []
            for index in 0..<folders {
                var metadata = FileMetadata()
                metadata.name = "Folder \(index)"
                metadata.mimeType = folderMimeType
                folderIDs.append(try state.create(metadata, content: nil, contentType: nil, keepForever: false).id)
            }
            for index in 0..<files {
                var metadata = FileMetadata()
                metadata.name = "file \(index).txt"
                metadata.parents = [folderIDs[index % folders]]
                _ = try state.create(metadata, content: content, contentType: "text/plain", keepForever: false)
            }
        }
    }

    /// How many nodes the store holds, the two roots included.
    var nodeCount: Int {
        store.withState { $0.nodes.values.count }
    }
}
