import Foundation
import MockProviders
import StratusHTTP
import Testing

@Suite("Revisions, restore and delete")
struct RevisionTests {
    @Test("list_revisions after three uploads lists them newest first; restore makes an old one current")
    func revisionsAndRestore() async throws {
        try await DropboxMockProvider().withSession { harness in
            var revs: [String] = []
            for text in ["first", "second", "third"] {
                let metadata = try await harness.upload("/notes.txt", text, mode: "overwrite")
                revs.append(try #require(metadata["rev"] as? String))
            }
            #expect(Set(revs).count == 3)
            let listed = try DropboxHarness.object(try await harness.rpc("list_revisions", ["path": "/Notes.txt"]))
            #expect(listed["is_deleted"] as? Bool == false)
            #expect(listed["has_more"] as? Bool == false)
            let entries = try #require(listed["entries"] as? [[String: Any]])
            #expect(entries.compactMap { $0["rev"] as? String } == revs.reversed())

            let limited = try DropboxHarness.object(
                try await harness.rpc("list_revisions", ["path": "/notes.txt", "limit": 2]))
            #expect((limited["entries"] as? [Any])?.count == 2)
            #expect(limited["has_more"] as? Bool == true)

            let restored = try await harness.rpc("restore", ["path": "/notes.txt", "rev": revs[0]])
            #expect(restored.status == 200)
            let metadata = try DropboxHarness.object(restored)
            let newRev = try #require(metadata["rev"] as? String)
            #expect(!revs.contains(newRev))
            let downloaded = try await harness.contentCall("download", ["path": "/notes.txt"])
            #expect(String(decoding: downloaded.body, as: UTF8.self) == "first")
            let after = try DropboxHarness.object(try await harness.rpc("list_revisions", ["path": "/notes.txt"]))
            #expect((after["entries"] as? [[String: Any]])?.first?["rev"] as? String == newRev)

            let bogus = try await harness.rpc("restore", ["path": "/notes.txt", "rev": "0123456789abc"])
            #expect(bogus.status == 409)
            #expect(try DropboxHarness.object(bogus)["error_summary"] as? String == "invalid_revision/...")
        }
    }

    @Test("After delete_v2, get_metadata answers path/not_found; include_deleted shows a deleted entry")
    func deleteThenLookup() async throws {
        try await DropboxMockProvider().withSession { harness in
            let uploaded = try await harness.upload("/gone.txt", "bye")
            let stale = try await harness.rpc("delete_v2", ["path": "/gone.txt", "parent_rev": "abcdef0123"])
            #expect(stale.status == 409)
            #expect(try DropboxHarness.object(stale)["error_summary"] as? String == "path_write/conflict/file/...")
            let deleted = try await harness.rpc(
                "delete_v2", ["path": "/gone.txt", "parent_rev": try #require(uploaded["rev"] as? String)])
            #expect(deleted.status == 200)

            let lookup = try await harness.rpc("get_metadata", ["path": "/gone.txt"])
            #expect(lookup.status == 409)
            let body = try DropboxHarness.object(lookup)
            #expect(body["error_summary"] as? String == "path/not_found/...")
            let error = try #require(body["error"] as? [String: Any])
            #expect(error[".tag"] as? String == "path")
            #expect((error["path"] as? [String: Any])?[".tag"] as? String == "not_found")

            let withDeleted = try DropboxHarness.object(
                try await harness.rpc("get_metadata", ["path": "/gone.txt", "include_deleted": true]))
            #expect(withDeleted[".tag"] as? String == "deleted")
            let revisions = try DropboxHarness.object(try await harness.rpc("list_revisions", ["path": "/gone.txt"]))
            #expect(revisions["is_deleted"] as? Bool == true)
            #expect(revisions["server_deleted"] is String)

            let again = try await harness.rpc("delete_v2", ["path": "/gone.txt"])
            #expect(try DropboxHarness.object(again)["error_summary"] as? String == "path_lookup/not_found/...")
        }
    }
}
