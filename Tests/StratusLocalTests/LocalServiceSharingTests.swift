import Foundation
import Stratus
import StratusLocal
import StratusTestSupport
import Testing

/// Two `LocalService` instances on one root stand in for two processes: each call opens the
/// lock file anew, and `flock` locks of separate opens exclude each other as across processes.
@Suite struct LocalServiceSharingTests {
    @Test func racingMustMatchWritesFromTwoInstancesNeverBothWin() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-local-tests")
        defer { folder.remove() }
        let first = try folder.service()
        let second = try folder.service()
        let path = try RemotePath("shared/save.json")
        var current = try await first.upload(from: .bytes(Data("round 0".utf8)), to: path).version

        for round in 1...20 {
            let base = current
            async let fromFirst = attempt(first, "first \(round)", path, base)
            async let fromSecond = attempt(second, "second \(round)", path, base)
            let outcomes = await [fromFirst, fromSecond]
            let winners = outcomes.compactMap { $0 }
            #expect(winners.count == 1, "round \(round): \(winners.count) writes with .mustMatch(\(base)) succeeded")
            guard let winner = winners.first else { return }
            current = winner.file.version
            let read = try await second.download(path, to: folder.file("check"))
            #expect(read.version == winner.file.version)
            #expect(try Data(contentsOf: folder.file("check")) == Data(winner.text.utf8))
        }
        #expect(try await second.versions(of: path).count == 21)
    }

    @Test func interleavedWritesSeeEachOthersVersions() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-local-tests")
        defer { folder.remove() }
        let first = try folder.service()
        let second = try folder.service()
        let path = try RemotePath("save.json")
        let created = try await first.upload(
            from: .bytes(Data("1".utf8)), to: path, options: UploadOptions(precondition: .mustNotExist))
        await expectServiceError(.conflict) {
            try await second.upload(
                from: .bytes(Data("x".utf8)), to: path, options: UploadOptions(precondition: .mustNotExist))
        }
        let updated = try await second.upload(
            from: .bytes(Data("2".utf8)), to: path, options: UploadOptions(precondition: .mustMatch(created.version)))
        await expectServiceError(.conflict) {
            try await first.upload(
                from: .bytes(Data("stale".utf8)), to: path,
                options: UploadOptions(precondition: .mustMatch(created.version)))
        }
        await expectServiceError(.conflict) { try await first.delete(path, precondition: .mustMatch(created.version)) }
        try await first.delete(path, precondition: .mustMatch(updated.version))
        await expectServiceError(.notFound) { try await second.metadata(of: path) }
    }

    @Test func aTokenFromOneInstanceWorksInAnother() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-local-tests")
        defer { folder.remove() }
        let token = try await folder.service().latestChangeToken()
        let writer = try folder.service()
        _ = try await writer.upload(from: .bytes(Data("a".utf8)), to: try RemotePath("a.txt"))
        let page = try await folder.service().changes(since: token)
        #expect(page.changes.map(\.path.string) == ["a.txt"])
        #expect(!page.hasMore)
    }

    private func attempt(_ service: LocalService, _ text: String, _ path: RemotePath, _ base: VersionID) async -> (
        text: String, file: RemoteFile
    )? {
        do {
            let file = try await service.upload(
                from: .bytes(Data(text.utf8)), to: path, options: UploadOptions(precondition: .mustMatch(base)))
            return (text, file)
        } catch let error as ServiceError where error.code == .conflict {
            return nil
        } catch {
            Issue.record("Expected success or conflict, got \(error)")
            return nil
        }
    }
}
