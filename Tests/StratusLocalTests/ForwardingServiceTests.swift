import Foundation
import Stratus
import StratusAdapterKit
import StratusLocal
import StratusTestSupport
import Synchronization
import Testing

/// ``ForwardingService``'s defaults: every requirement runs the hook, then the same call on the
/// base service; a hook that throws stops the call before the base sees it.
@Suite struct ForwardingServiceTests {
    /// Writes down each call's name and refuses the calls named in `refused`.
    final class Recorder: ForwardingService {
        let base: any Service
        let refused: Set<String>
        let seen = Mutex<[String]>([])

        init(_ base: any Service, refusing refused: Set<String> = []) {
            self.base = base
            self.refused = refused
        }

        func willForward(_ call: ServiceCall) async throws {
            seen.withLock { $0.append(call.name) }
            if refused.contains(call.name) { throw ServiceError(.permissionDenied, "Refused by the test.") }
        }
    }

    @Test func everyCallReachesTheBaseAfterTheHook() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-forwarding-tests")
        defer { folder.remove() }
        let local = try folder.service()
        let service = Recorder(local)
        let path = try RemotePath("save.json")

        #expect(service.capabilities == local.capabilities)
        let token = try await service.latestChangeToken()
        let first = try await service.upload(
            from: .bytes(Data("one".utf8)), to: path, options: UploadOptions(precondition: .mustNotExist))
        let second = try await service.upload(
            from: .bytes(Data("two".utf8)), to: path, options: UploadOptions(precondition: .mustMatch(first.version)))
        #expect(try await service.metadata(of: path).version == second.version)
        #expect(try await service.list(.root).map(\.path).contains(path))
        let page = try await service.changes(since: token)
        #expect(page.changes.map(\.path).contains(path))
        _ = try await service.waitForChanges(after: page.nextToken, timeout: .milliseconds(1))
        #expect(try await service.versions(of: path).map(\.id) == [second.version, first.version])
        _ = try await service.download(path, version: first.version, to: folder.file("old"), options: DownloadOptions())
        #expect(try Data(contentsOf: folder.file("old")) == Data("one".utf8))
        _ = try await service.restore(path, to: first.version)
        try await service.delete(path, precondition: .none)
        await expectServiceError(.notFound) { _ = try await local.metadata(of: path) }

        #expect(
            service.seen.withLock { $0 } == [
                "latestChangeToken", "upload", "upload", "metadata", "list", "changes", "waitForChanges", "versions",
                "download", "restore", "delete",
            ])
    }

    @Test func aThrowingHookStopsTheCall() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-forwarding-tests")
        defer { folder.remove() }
        let local = try folder.service()
        let service = Recorder(local, refusing: ["upload"])
        let path = try RemotePath("save.json")

        await expectServiceError(.permissionDenied) {
            _ = try await service.upload(from: .bytes(Data("one".utf8)), to: path, options: UploadOptions())
        }
        await expectServiceError(.notFound) { _ = try await local.metadata(of: path) }
        #expect(service.seen.withLock { $0 } == ["upload"])
    }
}
