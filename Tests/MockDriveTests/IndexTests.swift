import Foundation
import MockProviders
import StratusHTTP
import Testing

/// The indexes behind `files.list` by parent and name, the cached listing and the change log:
/// they must answer exactly what a scan of every file would.
@Suite("indexes")
struct IndexTests {
    /// The names `files.list` answers for a query, every page.
    static func names(
        _ harness: DriveHarness, _ q: String, pageSize: Int = 100, between: (() async throws -> Void)? = nil
    ) async throws -> [String] {
        var names: [String] = []
        var token: String?
        var pages = 0
        repeat {
            var query = [("q", q), ("pageSize", String(pageSize)), ("fields", "nextPageToken,files(name)")]
            if let token { query.append(("pageToken", token)) }
            let response = try await harness.send(.get, "/drive/v3/files", query: query)
            #expect(response.status == 200, "\(DriveHarness.text(response))")
            let page = try DriveHarness.object(response)
            names += (page["files"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            token = page["nextPageToken"] as? String
            pages += 1
            if pages == 1, let between { try await between() }
        } while token != nil && pages < 50
        return names
    }

    @Test("a parent and name query follows renames, moves, trash and deletes")
    func parentAndNameIndex() async throws {
        try await DriveMockProvider().withSession { harness in
            let a = try await harness.createFolder("a")
            let b = try await harness.createFolder("b")
            let one = try #require(try await harness.createFile("one", Data("1".utf8), parent: a)["id"] as? String)
            let two = try #require(try await harness.createFile("two", Data("2".utf8), parent: a)["id"] as? String)
            try await harness.createFile("one", Data("1b".utf8), parent: b)

            #expect(try await Self.names(harness, "'\(a)' in parents and name = 'one'") == ["one"])
            #expect(try await Self.names(harness, "name = 'one' and '\(b)' in parents and trashed = false") == ["one"])

            _ = try await harness.send(.patch, "/drive/v3/files/\(one)", json: ["name": "uno"])
            #expect(try await Self.names(harness, "'\(a)' in parents and name = 'one'").isEmpty)
            #expect(try await Self.names(harness, "'\(a)' in parents and name = 'uno'") == ["uno"])

            let move = try await harness.send(
                .patch, "/drive/v3/files/\(two)", query: [("addParents", b), ("removeParents", a)], json: [:])
            #expect(move.status == 200)
            #expect(try await Self.names(harness, "'\(a)' in parents") == ["uno"])
            #expect(Set(try await Self.names(harness, "'\(b)' in parents")) == ["one", "two"])

            _ = try await harness.send(.patch, "/drive/v3/files/\(one)", json: ["trashed": true])
            #expect(try await Self.names(harness, "'\(a)' in parents and trashed = false").isEmpty)
            #expect(try await Self.names(harness, "'\(a)' in parents and trashed = true") == ["uno"])

            _ = try await harness.send(.delete, "/drive/v3/files/\(b)")
            #expect(try await Self.names(harness, "'\(b)' in parents").isEmpty)
            #expect(try await Self.names(harness, "name = 'two'").isEmpty)
            // An `or` cannot start from one folder: it still sees every file.
            #expect(try await Self.names(harness, "'\(a)' in parents or name = 'uno'") == ["uno"])
        }
    }

    @Test("paging through a folder is read from one sorted listing, and a write between pages is seen")
    func cachedListing() async throws {
        try await DriveMockProvider().withSession { harness in
            let folder = try await harness.createFolder("many")
            for index in 0..<12 {
                try await harness.createFile(String(format: "f%02d", index), Data(), parent: folder)
            }
            let all = try await Self.names(harness, "'\(folder)' in parents", pageSize: 5)
            #expect(all == (0..<12).map { String(format: "f%02d", $0) })
            // A file created after the first page lands at the end (creation order) and is listed.
            let withNew = try await Self.names(harness, "'\(folder)' in parents", pageSize: 5) {
                try await harness.createFile("late", Data(), parent: folder)
            }
            #expect(withNew == all + ["late"])
        }
    }

    @Test("a file changed many times is reported once, at its newest change, across pages")
    func newestChangeOnly() async throws {
        try await DriveMockProvider().withSession { harness in
            let start = try #require(
                try DriveHarness.object(try await harness.send(.get, "/drive/v3/changes/startPageToken"))[
                    "startPageToken"] as? String)
            let first = try #require(try await harness.createFile("first", Data("1".utf8))["id"] as? String)
            let second = try #require(try await harness.createFile("second", Data("2".utf8))["id"] as? String)
            for round in 0..<5 {
                _ = try await harness.send(.patch, "/drive/v3/files/\(first)", json: ["description": "round \(round)"])
            }
            let third = try #require(try await harness.createFile("third", Data("3".utf8))["id"] as? String)
            let (changes, pages, _) = try await ChangeTests.drain(harness, from: start, query: [("pageSize", "1")])
            #expect(changes.compactMap { $0["fileId"] as? String } == [second, first, third])
            #expect(pages == 3)
        }
    }
}
