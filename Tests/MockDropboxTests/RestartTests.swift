import Foundation
import Hummingbird
import MockOAuth
import MockProviders
import MockSupport
import StratusHTTP
import StratusTestSupport
import Testing

@testable import MockDropbox

/// A Dropbox mock that saves its state in a folder it shares with the mocks started before and
/// after it: a restart is a new mock on the same folder.
struct RestartableDropbox: Sendable {
    let folder: URL

    /// A server on the folder, without starting it (to see what it makes of the folder).
    func makeServer(_ persistence: StatePersistence = .saved()) throws -> MockDropboxServer {
        try DropboxMockProvider().build(storage: folder, settings: MockServerSettings(persistence: persistence)).server
    }

    /// Runs `body` while a mock on the folder runs; then, unless `killed`, saves its state as
    /// `stratus-mock` does when it stops. A killed mock saves nothing more (a `SIGKILL`).
    @discardableResult
    func run<Result: Sendable>(
        _ persistence: StatePersistence = .saved(), killed: Bool = false,
        _ body: @Sendable (DropboxHarness) async throws -> Result
    ) async throws -> Result {
        try await DropboxMockProvider().withSession(in: folder, persistence: persistence, savesOnStop: !killed, body)
    }

    /// The state file.
    var stateFile: URL { folder.appendingPathComponent("dropbox-state.json") }
}

@Suite("Restarting the Dropbox mock on the same storage folder")
struct DropboxRestartTests {
    /// A property-template call (`/2/file_properties/templates/...`).
    static func templateCall(_ harness: DropboxHarness, _ route: String, _ arguments: [String: Any]) async throws
        -> [String: Any]
    {
        var headers = harness.headers(token: harness.token)
        headers.set("Content-Type", "application/json")
        let url = harness.baseURL.appendingPathComponent("2/file_properties/templates/" + route)
        let response = try await harness.client.execute(
            StratusHTTPRequest(
                method: .post, url: url, headers: headers,
                body: .bytes(try JSONSerialization.data(withJSONObject: arguments))))
        #expect(response.status == 200, "\(route): \(String(decoding: response.body, as: UTF8.self))")
        return try DropboxHarness.object(response)
    }

    static func entries(_ page: [String: Any]) -> [String] {
        ((page["entries"] as? [[String: Any]]) ?? []).compactMap { $0["path_display"] as? String }
    }

    @Test("Metadata, revisions, contents, deletions, templates and cursors survive a restart")
    func everythingSurvives() async throws {
        try await withTemporaryFolder(prefix: "dropbox-restart") { folder in
            let mock = RestartableDropbox(folder: folder.appendingPathComponent("data"))
            struct Before: Sendable {
                var metadata: [String: String]
                var revs: [String]
                var cursor: String
                var staleCursor: String
                var templateID: String
            }
            let before = try await mock.run { harness in
                let stale = try DropboxHarness.object(
                    try await harness.rpc("list_folder/get_latest_cursor", ["path": "", "recursive": true]))
                harness.server.invalidateCursors()
                let first = try await harness.upload("/Docs/Notes.txt", "one", mode: "overwrite")
                let second = try await harness.upload("/Docs/Notes.txt", "two", mode: "overwrite")
                try await harness.upload("/Docs/other.txt", "other")
                try await harness.upload("/gone.txt", "bye")
                #expect(try await harness.rpc("delete_v2", ["path": "/gone.txt"]).status == 200)
                let template = try await Self.templateCall(
                    harness, "add_for_user",
                    [
                        "name": "Save", "description": "Facts",
                        "fields": [["name": "device", "description": "Where", "type": "string"]],
                    ])
                let listed = try DropboxHarness.object(
                    try await harness.rpc("list_folder", ["path": "", "recursive": true]))
                #expect(Self.entries(listed) == ["/Docs", "/Docs/Notes.txt", "/Docs/other.txt"])
                return Before(
                    metadata: [
                        "id": try #require(second["id"] as? String), "rev": try #require(second["rev"] as? String),
                    ],
                    revs: [try #require(first["rev"] as? String), try #require(second["rev"] as? String)],
                    cursor: try #require(listed["cursor"] as? String),
                    staleCursor: try #require(stale["cursor"] as? String),
                    templateID: try #require(template["template_id"] as? String))
            }

            let attributes = try FileManager.default.attributesOfItem(atPath: mock.stateFile.path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            let folderAttributes = try FileManager.default.attributesOfItem(atPath: mock.folder.path)
            #expect((folderAttributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)

            try await mock.run { harness in
                let metadata = try DropboxHarness.object(
                    try await harness.rpc("get_metadata", ["path": "/docs/notes.txt"]))
                #expect(metadata["id"] as? String == before.metadata["id"])
                #expect(metadata["rev"] as? String == before.metadata["rev"])
                #expect(metadata["path_display"] as? String == "/Docs/Notes.txt")
                let byID = try await harness.rpc("get_metadata", ["path": try #require(before.metadata["id"])])
                #expect(byID.status == 200)

                let revisions = try DropboxHarness.object(
                    try await harness.rpc("list_revisions", ["path": "/Docs/Notes.txt"]))
                let revs = (revisions["entries"] as? [[String: Any]] ?? []).compactMap { $0["rev"] as? String }
                #expect(revs == before.revs.reversed())
                let current = try await harness.contentCall("download", ["path": "/Docs/Notes.txt"])
                #expect(String(decoding: current.body, as: UTF8.self) == "two")
                let old = try await harness.contentCall("download", ["path": "rev:" + before.revs[0]])
                #expect(String(decoding: old.body, as: UTF8.self) == "one")

                let gone = try await harness.rpc("get_metadata", ["path": "/gone.txt", "include_deleted": true])
                #expect(try DropboxHarness.object(gone)[".tag"] as? String == "deleted")
                let templates = try await Self.templateCall(harness, "list_for_user", [:])
                #expect(templates["template_ids"] as? [String] == [before.templateID])

                // The cursor from before the restart: nothing new yet, then the write after it.
                let quiet = try DropboxHarness.object(
                    try await harness.rpc("list_folder/continue", ["cursor": before.cursor]))
                #expect(Self.entries(quiet).isEmpty)
                let added = try await harness.upload("/Docs/after.txt", "after")
                #expect(!before.revs.contains(try #require(added["rev"] as? String)))
                #expect(added["id"] as? String != before.metadata["id"])
                let changes = try DropboxHarness.object(
                    try await harness.rpc("list_folder/continue", ["cursor": before.cursor]))
                #expect(Self.entries(changes) == ["/Docs/after.txt"])
                // The epoch survives too: a cursor invalidated before the restart stays invalid.
                let reset = try await harness.rpc("list_folder/continue", ["cursor": before.staleCursor])
                #expect(reset.status == 409)
                #expect(try DropboxHarness.object(reset)["error_summary"] as? String == "reset/...")
            }
        }
    }

    @Test("Without persistence: .saved() nothing is written, and a new server starts empty")
    func inMemoryByDefault() async throws {
        try await withTemporaryFolder(prefix: "dropbox-restart") { folder in
            let mock = RestartableDropbox(folder: folder.appendingPathComponent("data"))
            try await mock.run(.inMemory) { harness in
                try await harness.upload("/kept-nowhere.txt", "x")
                #expect(harness.server.persistence == nil)
            }
            #expect(!FileManager.default.fileExists(atPath: mock.stateFile.path))
            try await mock.run(.inMemory) { harness in
                let lookup = try await harness.rpc("get_metadata", ["path": "/kept-nowhere.txt"])
                #expect(lookup.status == 409)
            }
        }
    }

    @Test(
        "A state file that cannot be read stops the server from starting, naming the file",
        arguments: [
            ("garbage", "{\"not\": \"a state file\"}", PersistentStateError.Code.notAStateFile),
            ("newer", "stratus-mock-state dropbox 99\n{}", .unsupportedVersion),
            ("other mock", "stratus-mock-state drive 1\n{}", .otherMock),
            ("truncated", "stratus-mock-state dropbox 1\n{\"nodes\": {", .corrupt),
            ("wrong shape", "stratus-mock-state dropbox 1\n{\"nodes\": []}", .corrupt),
        ])
    func unreadableStateIsRefused(name: String, content: String, code: PersistentStateError.Code) throws {
        try withTemporaryFolder(prefix: "dropbox-restart") { folder in
            let mock = RestartableDropbox(folder: folder.appendingPathComponent("data"))
            try BlobStore.makePrivateFolder(mock.folder)
            try Data(content.utf8).write(to: mock.stateFile)
            let error = try #require(throws: PersistentStateError.self) { try mock.makeServer() }
            #expect(error.code == code, "\(name)")
            #expect(error.file.path == mock.stateFile.path)
            #expect(error.description.contains(mock.stateFile.path))
            // Refused, not replaced: the file is as it was.
            #expect(try String(contentsOf: mock.stateFile, encoding: .utf8) == content)
            // In memory, the same folder is fine.
            _ = try mock.makeServer(.inMemory)
        }
    }

    @Test("A state naming file contents the blob store lost is refused")
    func missingBlobIsRefused() async throws {
        try await withTemporaryFolder(prefix: "dropbox-restart") { folder in
            let mock = RestartableDropbox(folder: folder.appendingPathComponent("data"))
            let size = try await mock.run { harness in
                try await harness.upload("/lost.txt", "soon lost")["size"] as? Int
            }
            let blobs = mock.folder.appendingPathComponent("blobs")
            for name in try FileManager.default.contentsOfDirectory(atPath: blobs.path) {
                try FileManager.default.removeItem(at: blobs.appendingPathComponent(name))
            }
            let error = try #require(throws: PersistentStateError.self) { try mock.makeServer() }
            #expect(error.code == .missingBlobs)
            #expect(size == 9)
        }
    }

    @Test("Saves wait for the delay: until then a kill loses the writes, flush() saves them at once")
    func delayedSaveAndKill() async throws {
        try await withTemporaryFolder(prefix: "dropbox-restart") { folder in
            let mock = RestartableDropbox(folder: folder.appendingPathComponent("data"))
            // A delay no test reaches: only flush() saves.
            let never = StatePersistence.saved(delay: .seconds(3600))
            try await mock.run(never, killed: true) { harness in
                let persistence = try #require(harness.server.persistence)
                try await harness.upload("/saved.txt", "saved")
                try await harness.upload("/saved-too.txt", "saved too")
                #expect(persistence.saveCount == 0)
                #expect(!FileManager.default.fileExists(atPath: mock.stateFile.path))
                try await persistence.flush()
                #expect(persistence.saveCount == 1)
                try await persistence.flush()
                #expect(persistence.saveCount == 1, "nothing changed: nothing to save")
                try await harness.upload("/lost.txt", "lost")
            }
            let statuses = try await mock.run { harness in
                var statuses: [Int] = []
                for path in ["/saved.txt", "/saved-too.txt", "/lost.txt"] {
                    statuses.append(try await harness.rpc("get_metadata", ["path": path]).status)
                }
                return statuses
            }
            #expect(statuses == [200, 200, 409])
        }
    }

    @Test("Without a flush, the state is saved within the delay of a write", .timeLimit(.minutes(1)))
    func delayedSaveHappens() async throws {
        try await withTemporaryFolder(prefix: "dropbox-restart") { folder in
            let mock = RestartableDropbox(folder: folder.appendingPathComponent("data"))
            try await mock.run(.saved(delay: .milliseconds(10)), killed: true) { harness in
                try await harness.upload("/soon.txt", "soon")
                await harness.server.persistence?.waitForSaves(1)
            }
            let status = try await mock.run { harness in
                try await harness.rpc("get_metadata", ["path": "/soon.txt"]).status
            }
            #expect(status == 200)
        }
    }

    @Test("A namespace of 11,000 files is saved and loaded (times printed, not asserted)")
    func largeNamespace() async throws {
        try await withTemporaryFolder(prefix: "dropbox-restart") { folder in
            let mock = RestartableDropbox(folder: folder.appendingPathComponent("data"))
            let server = try mock.makeServer(.saved(delay: .seconds(3600)))
            let persistence = try #require(server.persistence)
            let blob = try BlobStore(root: mock.folder).store(Array("the same bytes".utf8))
            server.fill(files: 11_000, folders: 100, blob: blob)
            let saveStart = ContinuousClock.now
            try await persistence.flush()
            let saved = ContinuousClock.now - saveStart
            let size = (try FileManager.default.attributesOfItem(atPath: mock.stateFile.path)[.size] as? NSNumber)?
                .intValue
            let loadStart = ContinuousClock.now
            let reloaded = try mock.makeServer()
            let loaded = ContinuousClock.now - loadStart
            #expect(reloaded.fileCount == 11_000)
            print("Dropbox mock, 11,000 files: saved in \(saved), loaded in \(loaded), \(size ?? 0) bytes")
        }
    }
}

extension MockDropboxServer {
    /// Commits `files` files spread over `folders` folders, all holding `blob`, straight into
    /// the namespace (what thousands of uploads would leave).
    func fill(files: Int, folders: Int, blob: BlobInfo) {
        namespace.withState { state in
            for index in 0..<files {
                guard
                    let path = try? DropboxPath(
                        parsing: "/Folder \(index % folders)/file \(index).txt", allowRoot: false)
                else { continue }
                let request = CommitRequest(
                    path: path, mode: .add, autorename: false, clientModified: nil, strictConflict: false)
                _ = try? state.commit(request, blob: blob)
            }
        }
    }

    /// How many files (not folders) the namespace holds, deleted or not.
    var fileCount: Int {
        namespace.withState { state in state.nodes.values.count { $0.kind == .file } }
    }
}
