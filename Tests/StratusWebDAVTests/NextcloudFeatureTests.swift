import Foundation
import MockNextcloud
import MockSupport
import Stratus
import Testing

@testable import StratusWebDAV

/// What the Nextcloud dialect adds: folder ETags that let the change feed skip unchanged
/// subtrees, and downloads that survive a cut connection (the mock's fault injection).
@Suite struct NextcloudFeatureTests {
    @Test func theChangeFeedSkipsFoldersWhoseETagDidNotChange() async throws {
        let folder = "skip-\(UUID().uuidString.prefix(8))"
        let service = try await NextcloudMockServer.makeService(folder: folder)
        let log = try await NextcloudMockServer.running().server.requestLog
        for name in ["quiet/a.txt", "quiet/deeper/b.txt", "busy/c.txt"] {
            _ = try await service.upload(from: .bytes(Data(name.utf8)), to: try RemotePath(name))
        }
        let token = try await service.latestChangeToken()
        _ = try await service.upload(from: .bytes(Data("new".utf8)), to: try RemotePath("busy/d.txt"))
        let before = log.count
        let page = try await service.changes(since: token)
        #expect(page.changes.map(\.path.string) == ["busy/d.txt"])
        let propfinds = log.entries.dropFirst(before).filter { $0.method == "PROPFIND" }.map(\.path)
        #expect(propfinds.contains { $0.hasSuffix("/\(folder)/busy/") })
        #expect(
            !propfinds.contains { $0.contains("/\(folder)/quiet") }, "PROPFIND of an unchanged subtree: \(propfinds)")
    }

    @Test func aDownloadCutShortResumesAndIsChecked() async throws {
        let folder = "resume-\(UUID().uuidString.prefix(8))"
        let service = try await NextcloudMockServer.makeService(folder: folder)
        let running = try await NextcloudMockServer.running()
        let content = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let path = try RemotePath("big.bin")
        _ = try await service.upload(from: .bytes(content), to: path)
        let rule = running.server.faults.add(
            FaultRule(
                route: "/remote.php/dav/files/*/\(folder)/big.bin", method: "GET",
                fault: .dropAfterResponseBytes(100_000)))
        defer { _ = running.server.faults.remove(id: rule) }
        let destination = FileManager.default.temporaryDirectory.appending(
            path: "stratus-nextcloud-resume-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: destination) }
        let file = try await service.download(path, to: destination)
        #expect(try Data(contentsOf: destination) == content)
        #expect(file.contentHash != nil)
        let ranges = running.server.requestLog.entries.filter {
            $0.method == "GET" && $0.path.hasSuffix("/\(folder)/big.bin")
        }.compactMap { $0.header("Range") }
        #expect(ranges == ["bytes=100000-"])
    }

    @Test func aVersionsListOfAnotherUsersFileIsNotFound() async throws {
        let service = try await NextcloudMockServer.makeService(folder: "absent-\(UUID().uuidString.prefix(8))")
        await #expect(throws: ServiceError.self) {
            _ = try await service.versions(of: try RemotePath("never-written.txt"))
        }
    }
}
