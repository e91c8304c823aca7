import Foundation
import Stratus
import StratusTestSupport
import Testing

@testable import StratusDrive

/// The change feed reads the next page while the caller works through the current one; a
/// page read early must lose and repeat nothing, even when files are written between pages.
@Suite struct ChangeFeedPrefetchTests {
    /// Reads the feed to its end from a token; the changes in order, and the last token.
    private func readToTheEnd(_ service: DriveService, from token: ChangeToken) async throws -> (
        changes: [Change], last: ChangeToken
    ) {
        var token = token
        var changes: [Change] = []
        while true {
            let page = try await service.changes(since: token)
            changes += page.changes
            token = page.nextToken
            if !page.hasMore { return (changes, token) }
        }
    }

    @Test func theNextPageIsAskedForBeforeTheCallerAsks() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService(pageSize: 1)
            let token = try await service.latestChangeToken()
            for index in 0..<3 {
                _ = try await service.upload(from: .bytes(Data("\(index)".utf8)), to: try RemotePath("f\(index).txt"))
            }
            fixture.server.requestLog.clear()
            let first = try await service.changes(since: token)
            #expect(first.hasMore)
            // The second page's request was started by the first call; wait for it to arrive.
            var asked = 0
            for _ in 0..<200 {
                asked = fixture.server.requestLog.entries(path: "/drive/v3/changes").count
                if asked >= 2 { break }
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(asked == 2)
            let second = try await service.changes(since: first.nextToken)
            // The prefetched page answered the call: no request of its own.
            #expect(fixture.server.requestLog.entries(path: "/drive/v3/changes").count <= 3)
            #expect(
                first.changes.map(\.path) + second.changes.map(\.path) == [
                    try RemotePath("f0.txt"), try RemotePath("f1.txt"),
                ])
        }
    }

    @Test func writesBetweenPagesAreNeitherLostNorRepeated() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService(pageSize: 2)
            let token = try await service.latestChangeToken()
            for index in 0..<5 {
                _ = try await service.upload(from: .bytes(Data("\(index)".utf8)), to: try RemotePath("a\(index).txt"))
            }
            let first = try await service.changes(since: token)
            #expect(first.hasMore)
            // Written while the next page is (or was) being read early.
            _ = try await service.upload(from: .bytes(Data("late".utf8)), to: try RemotePath("late.txt"))
            let rest = try await readToTheEnd(service, from: first.nextToken)
            let after = try await readToTheEnd(service, from: rest.last)
            let paths = (first.changes + rest.changes + after.changes).map(\.path.string)
            #expect(paths.sorted() == ["a0.txt", "a1.txt", "a2.txt", "a3.txt", "a4.txt", "late.txt"])
            #expect(Set(paths).count == paths.count)
        }
    }

    @Test func aTokenThatWasNotPrefetchedIsReadDirectly() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService(pageSize: 1)
            let token = try await service.latestChangeToken()
            for index in 0..<3 {
                _ = try await service.upload(from: .bytes(Data("\(index)".utf8)), to: try RemotePath("g\(index).txt"))
            }
            let first = try await service.changes(since: token)
            // Reading from the start again (another reader's token) bypasses the held page.
            let again = try await service.changes(since: token)
            #expect(again.changes.map(\.path) == first.changes.map(\.path))
            let second = try await service.changes(since: first.nextToken)
            #expect(second.changes.map(\.path) == [try RemotePath("g1.txt")])
        }
    }
}
