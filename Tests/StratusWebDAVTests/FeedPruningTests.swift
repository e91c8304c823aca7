import Foundation
import Stratus
import StratusTestSupport
import Testing
import WebDAVServers

@testable import StratusWebDAV

/// Pruning of the change feed's journal and snapshots, against WsgiDAV.
@Suite(.enabled(if: WebDAVTestServers.wsgidavRuns, WebDAVTestServers.skipReason(.wsgidav)))
struct FeedPruningTests {
    @Test func pruningDeletesOldRecordsAndRefusesTokensOlderThanThem() async throws {
        let folder = "prune-\(UUID().uuidString.prefix(8))"
        let keeping = try await WebDAVTestServers.configuration(.wsgidav, folder: folder)
        var pruning = keeping
        pruning.feedRetention = .zero
        let writer = try WebDAVService(configuration: keeping)
        _ = try await writer.upload(from: .bytes(Data("one".utf8)), to: try RemotePath("a.txt"))
        let old = try await writer.latestChangeToken()
        _ = try await writer.upload(from: .bytes(Data("two".utf8)), to: try RemotePath("b.txt"))

        let server = try await WebDAVTestServers.server(.wsgidav)
        let reserved = server.root.appending(path: folder).appending(path: ".stratus")
        let journal = reserved.appending(path: "journal")
        let feed = reserved.appending(path: "feed")
        #expect(try FileManager.default.contentsOfDirectory(atPath: journal.path).count == 2)
        let oldSnapshots = try FileManager.default.contentsOfDirectory(atPath: feed.path)
        #expect(oldSnapshots.count == 1)

        // Everything before now is past a zero retention.
        let pruner = try WebDAVService(configuration: pruning)
        let fresh = try await pruner.latestChangeToken()
        #expect(try FileManager.default.contentsOfDirectory(atPath: journal.path).isEmpty)
        let kept = try FileManager.default.contentsOfDirectory(atPath: feed.path)
        #expect(Set(kept).isDisjoint(with: oldSnapshots))
        #expect(kept.contains(WebDAVService.prunedJournalMarker))

        // The old token could miss what was pruned, on any instance.
        for service in [pruner, writer] {
            await expectServiceError(.invalidChangeToken) { try await service.changes(since: old) }
        }

        // A token taken after the pruning goes on working.
        _ = try await writer.upload(from: .bytes(Data("three".utf8)), to: try RemotePath("c.txt"))
        let page = try await pruner.changes(since: fresh)
        #expect(page.changes.map(\.path.string) == ["c.txt"])
        #expect(try await writer.changes(since: page.nextToken).changes.isEmpty)
    }
}
