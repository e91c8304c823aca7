import Foundation
import MockProviders
import StratusHTTP
import Testing

/// The change log's index and the cached initial listing: the answers must be what a scan of
/// every change and every path would give.
@Suite("change log")
struct ChangeLogTests {
    /// Every page of `list_folder/continue` from a cursor; the entries and the page count.
    static func drain(_ harness: DropboxHarness, from cursor: String) async throws -> ([[String: Any]], Int) {
        var entries: [[String: Any]] = []
        var cursor = cursor
        for pages in 1...50 {
            let page = try DropboxHarness.object(try await harness.rpc("list_folder/continue", ["cursor": cursor]))
            entries += try #require(page["entries"] as? [[String: Any]])
            cursor = try #require(page["cursor"] as? String)
            if page["has_more"] as? Bool != true { return (entries, pages) }
        }
        Issue.record("the feed never ended")
        return (entries, 50)
    }

    @Test("A path written many times is reported once, at its newest change, across pages; other folders are skipped")
    func newestChangeOnce() async throws {
        try await DropboxMockProvider().withSession { harness in
            try await harness.upload("/in/keep.txt", "k")
            let start = try DropboxHarness.object(
                try await harness.rpc("list_folder/get_latest_cursor", ["path": "/in", "recursive": true, "limit": 1]))
            let cursor = try #require(start["cursor"] as? String)
            try await harness.upload("/in/a.txt", "a0")
            try await harness.upload("/out/x.txt", "x")
            try await harness.upload("/in/b.txt", "b")
            for round in 1...4 {
                try await harness.upload("/in/a.txt", "a\(round)", mode: "overwrite")
            }
            try await harness.upload("/in/c.txt", "c")
            let (entries, pages) = try await Self.drain(harness, from: cursor)
            #expect(entries.compactMap { $0["path_lower"] as? String } == ["/in/b.txt", "/in/a.txt", "/in/c.txt"])
            #expect(pages == 3)
            #expect(entries[1]["size"] as? Int == 2)
        }
    }

    @Test("An initial listing paged while a file is added sees the new file in order")
    func listingWithWriteBetweenPages() async throws {
        try await DropboxMockProvider().withSession { harness in
            for name in ["d", "b", "f", "a"] {
                try await harness.upload("/l/\(name).txt", name)
            }
            var page = try DropboxHarness.object(try await harness.rpc("list_folder", ["path": "/l", "limit": 2]))
            var names = try #require(page["entries"] as? [[String: Any]]).compactMap { $0["name"] as? String }
            try await harness.upload("/l/e.txt", "e")
            while page["has_more"] as? Bool == true {
                let cursor = try #require(page["cursor"] as? String)
                page = try DropboxHarness.object(try await harness.rpc("list_folder/continue", ["cursor": cursor]))
                names += try #require(page["entries"] as? [[String: Any]]).compactMap { $0["name"] as? String }
            }
            #expect(names == ["a.txt", "b.txt", "d.txt", "e.txt", "f.txt"])
        }
    }
}
