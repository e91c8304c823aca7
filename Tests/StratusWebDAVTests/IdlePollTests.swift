import Foundation
import MockSupport
import Stratus
import StratusTestSupport
import Testing

@testable import StratusWebDAV

/// What a poll of the emulated change feed costs when nothing changed: the listings it needs
/// (the journal's names and the tree), and no fetch, write or check of records it already has.
@Suite struct IdlePollTests {
    @Test func aPollThatFindsNothingOnlyLists() async throws {
        let folder = "idle-\(UUID().uuidString.prefix(8))"
        let service = try await NextcloudMockServer.makeService(folder: folder)
        let log = try await NextcloudMockServer.running().log
        _ = try await service.upload(from: .bytes(Data("one".utf8)), to: try RemotePath("a.txt"))
        let token = try await service.latestChangeToken()
        let first = try await service.changes(since: token)
        #expect(first.changes.isEmpty)

        let before = Self.requests(in: log, folder: folder).count
        let second = try await service.changes(since: first.nextToken)
        let requests = Self.requests(in: log, folder: folder).dropFirst(before)
        #expect(second.changes.isEmpty)
        #expect(second.nextToken == first.nextToken, "an unchanged feed keeps its token")
        #expect(!requests.isEmpty)
        #expect(
            requests.allSatisfy { $0.method == "PROPFIND" },
            "an idle poll sent \(requests.map { "\($0.method) \($0.path)" })")
    }

    @Test func aRememberedTokenServesOtherInstancesAndMissesNoChange() async throws {
        let folder = "idle-\(UUID().uuidString.prefix(8))"
        let first = try await NextcloudMockServer.makeService(folder: folder)
        _ = try await first.upload(from: .bytes(Data("one".utf8)), to: try RemotePath("a.txt"))
        let token = try await first.changes(since: try await first.latestChangeToken()).nextToken

        // The snapshot is on the server, so a new instance reads the token.
        let second = try await NextcloudMockServer.makeService(folder: folder)
        #expect(try await second.changes(since: token).changes.isEmpty)

        // A change by another instance is found by the one that remembers the snapshot.
        _ = try await second.upload(from: .bytes(Data("two".utf8)), to: try RemotePath("b.txt"))
        let page = try await first.changes(since: token)
        #expect(page.changes.map(\.path.string) == ["b.txt"])
        #expect(try await first.changes(since: page.nextToken).changes.isEmpty)
    }

    private static func requests(in log: RequestLog, folder: String) -> [RecordedRequest] {
        log.entries.filter { $0.path.contains("/\(folder)/") }
    }
}
