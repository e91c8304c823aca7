import Foundation
import Stratus
import StratusTestSupport
import Testing
import WebDAVServers

@testable import StratusWebDAV

/// What the contract suite does not reach, against Apache mod_dav.
@Suite(.enabled(if: WebDAVTestServers.apacheRuns, WebDAVTestServers.skipReason(.apache)))
struct ApacheBehaviourTests {
    @Test func aWrongPasswordIsUnauthorizedAndNeverQuoted() async throws {
        var configuration = try await WebDAVTestServers.configuration(
            .apache, folder: "auth-\(UUID().uuidString.prefix(8))")
        configuration.credentials = WebDAVCredentials(user: WebDAVTestServers.user, password: "wrong-password-xyz")
        let service = try WebDAVService(configuration: configuration)
        let error = await expectServiceError(.unauthorized) { try await service.list(.root) }
        #expect(error?.message.contains("wrong-password-xyz") == false)
    }

    @Test func theChangeFeedFindsAFileAnotherProgramWrote() async throws {
        let folder = "foreign-\(UUID().uuidString.prefix(8))"
        let service = try await WebDAVTestServers.makeService(.apache, folder: folder)
        _ = try await service.upload(from: .bytes(Data("mine".utf8)), to: try RemotePath("mine.txt"))
        let token = try await service.latestChangeToken()
        let server = try await WebDAVTestServers.server(.apache)
        let foreign = server.root.appending(path: folder).appending(path: "theirs.txt")
        try Data("written beside Stratus".utf8).write(to: foreign)
        let page = try await service.changes(since: token)
        guard case .upserted(let file)? = page.changes.first, page.changes.count == 1 else {
            Issue.record("expected one upsert, got \(page.changes)")
            return
        }
        #expect(file.path.string == "theirs.txt")
        #expect(file.contentHash == nil, "a file another program wrote has no recorded hash")
        let destination = FileManager.default.temporaryDirectory.appending(
            path: "stratus-webdav-foreign-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: destination) }
        _ = try await service.download(file.path, to: destination)
        #expect(try Data(contentsOf: destination) == Data("written beside Stratus".utf8))
    }

    @Test func anOverwriteByAnotherProgramMakesTheRecordStale() async throws {
        let folder = "stale-\(UUID().uuidString.prefix(8))"
        let service = try await WebDAVTestServers.makeService(.apache, folder: folder)
        let path = try RemotePath("slot.json")
        let written = try await service.upload(from: .bytes(Data("stratus".utf8)), to: path)
        #expect(written.contentHash != nil)
        let server = try await WebDAVTestServers.server(.apache)
        try await Task.sleep(for: .milliseconds(20))
        try Data("someone else!".utf8).write(to: server.root.appending(path: folder).appending(path: "slot.json"))
        let described = try await service.metadata(of: path)
        #expect(described.contentHash == nil)
        #expect(described.version != written.version)
        await #expect(throws: ServiceError.self) {
            _ = try await service.upload(
                from: .bytes(Data("stale".utf8)), to: path,
                options: UploadOptions(precondition: .mustMatch(written.version)))
        }
    }
}
