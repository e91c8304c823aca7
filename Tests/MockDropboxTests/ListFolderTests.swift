import Foundation
import MockProviders
import StratusHTTP
import Testing

@Suite("list_folder")
struct ListFolderTests {
    @Test("Recursive listing pages with has_more; continue shows a new entry and a deleted one")
    func pagingAndChanges() async throws {
        try await DropboxMockProvider().withSession { harness in
            for index in 0..<5 {
                try await harness.upload("/Root/Sub/file\(index).txt", "content \(index)")
            }
            var entries: [[String: Any]] = []
            var page = try DropboxHarness.object(
                try await harness.rpc("list_folder", ["path": "/root", "recursive": true, "limit": 2]))
            entries += try #require(page["entries"] as? [[String: Any]])
            #expect(page["has_more"] as? Bool == true)
            var pages = 1
            while page["has_more"] as? Bool == true {
                let cursor = try #require(page["cursor"] as? String)
                page = try DropboxHarness.object(try await harness.rpc("list_folder/continue", ["cursor": cursor]))
                entries += try #require(page["entries"] as? [[String: Any]])
                pages += 1
            }
            #expect(pages == 3)
            let names = entries.compactMap { $0["path_display"] as? String }
            #expect(Set(names) == Set(["/Root/Sub"] + (0..<5).map { "/Root/Sub/file\($0).txt" }))
            #expect(entries.first { $0["path_display"] as? String == "/Root/Sub" }?[".tag"] as? String == "folder")

            let cursor = try #require(page["cursor"] as? String)
            let quiet = try DropboxHarness.object(try await harness.rpc("list_folder/continue", ["cursor": cursor]))
            #expect((quiet["entries"] as? [Any])?.isEmpty == true)

            try await harness.upload("/Root/new.txt", "new")
            let deleted = try await harness.rpc("delete_v2", ["path": "/Root/Sub/file0.txt"])
            #expect(deleted.status == 200)
            #expect((try DropboxHarness.object(deleted)["metadata"] as? [String: Any])?[".tag"] as? String == "file")
            let changes = try DropboxHarness.object(try await harness.rpc("list_folder/continue", ["cursor": cursor]))
            let changed = try #require(changes["entries"] as? [[String: Any]])
            #expect(
                changed.contains { $0[".tag"] as? String == "file" && $0["path_display"] as? String == "/Root/new.txt" }
            )
            #expect(
                changed.contains {
                    $0[".tag"] as? String == "deleted" && $0["path_lower"] as? String == "/root/sub/file0.txt"
                })
            #expect(changed.count == 2)
        }
    }

    @Test("An invalidated cursor answers reset")
    func reset() async throws {
        try await DropboxMockProvider().withSession { harness in
            try await harness.upload("/a.txt", "a")
            let latest = try DropboxHarness.object(try await harness.rpc("list_folder/get_latest_cursor", ["path": ""]))
            let cursor = try #require(latest["cursor"] as? String)
            harness.server.invalidateCursors()
            let response = try await harness.rpc("list_folder/continue", ["cursor": cursor])
            #expect(response.status == 409)
            let body = try DropboxHarness.object(response)
            #expect((body["error"] as? [String: Any])?[".tag"] as? String == "reset")
            #expect(body["error_summary"] as? String == "reset/...")
        }
    }

    @Test("Longpoll, without a token, reports a change made while it waits")
    func longpoll() async throws {
        try await DropboxMockProvider().withSession { harness in
            let latest = try DropboxHarness.object(try await harness.rpc("list_folder/get_latest_cursor", ["path": ""]))
            let cursor = try #require(latest["cursor"] as? String)
            async let poll = harness.rpc("list_folder/longpoll", ["cursor": cursor, "timeout": 30], token: .some(nil))
            try await Task.sleep(for: .milliseconds(300))
            try await harness.upload("/poke.txt", "poke")
            let response = try await poll
            #expect(response.status == 200)
            #expect(try DropboxHarness.object(response)["changes"] as? Bool == true)
        }
    }

    @Test("Longpoll answers carry the backoff the server is configured with, and none by default")
    func longpollBackoff() async throws {
        try await DropboxMockProvider(options: .init(maxLongpollWait: .milliseconds(100), longpollBackoff: 7))
            .withSession {
                harness in
                let latest = try DropboxHarness.object(
                    try await harness.rpc("list_folder/get_latest_cursor", ["path": ""]))
                let cursor = try #require(latest["cursor"] as? String)
                let quiet = try DropboxHarness.object(
                    try await harness.rpc("list_folder/longpoll", ["cursor": cursor, "timeout": 30], token: .some(nil)))
                #expect(quiet["changes"] as? Bool == false)
                #expect(quiet["backoff"] as? Int == 7)
                try await harness.upload("/poke.txt", "poke")
                let changed = try DropboxHarness.object(
                    try await harness.rpc("list_folder/longpoll", ["cursor": cursor, "timeout": 30], token: .some(nil)))
                #expect(changed["changes"] as? Bool == true)
                #expect(changed["backoff"] as? Int == 7)
            }
        try await DropboxMockProvider(options: .init(maxLongpollWait: .milliseconds(100))).withSession { harness in
            let latest = try DropboxHarness.object(try await harness.rpc("list_folder/get_latest_cursor", ["path": ""]))
            let cursor = try #require(latest["cursor"] as? String)
            let answer = try DropboxHarness.object(
                try await harness.rpc("list_folder/longpoll", ["cursor": cursor, "timeout": 30], token: .some(nil)))
            #expect(answer["backoff"] == nil)
        }
    }
}
