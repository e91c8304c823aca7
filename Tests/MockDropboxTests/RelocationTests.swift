import Foundation
import MockDropbox
import MockProviders
import StratusHTTP
import Testing

/// `move_v2`, `copy_v2`, `create_folder_v2`, `delete_batch` and `delete_batch/check`.
@Suite("Relocation, folders and batch deletes")
struct RelocationTests {
    /// The decoded body of a call that must answer 200.
    static func ok(_ response: StratusHTTPResponse, _ what: String = "") throws -> [String: Any] {
        #expect(response.status == 200, "\(what): \(String(decoding: response.body, as: UTF8.self))")
        return try DropboxHarness.object(response)
    }

    /// The `error_summary` of a 409 answer.
    static func summary(_ response: StratusHTTPResponse) throws -> String? {
        #expect(response.status == 409, "\(String(decoding: response.body, as: UTF8.self))")
        return try DropboxHarness.object(response)["error_summary"] as? String
    }

    /// A union's tags joined by `/`, following each member nested under its own name.
    static func tagChain(_ union: [String: Any]) -> String {
        var tags: [String] = []
        var current: [String: Any]? = union
        while let value = current, let tag = value[".tag"] as? String {
            tags.append(tag)
            current = value[tag] as? [String: Any]
        }
        return tags.joined(separator: "/")
    }

    /// Every `path_lower` a recursive listing of the root gives, sorted.
    static func listing(_ harness: DropboxHarness, _ path: String = "") async throws -> [String] {
        let page = try Self.ok(try await harness.rpc("list_folder", ["path": path, "recursive": true]))
        let entries = try #require(page["entries"] as? [[String: Any]])
        return entries.compactMap { $0["path_lower"] as? String }.sorted()
    }

    @Test("A move keeps the id and every revision; the change feed shows the old path deleted and the new one added")
    func moveKeepsIdentity() async throws {
        try await DropboxMockProvider().withSession { harness in
            let first = try await harness.upload("/a/notes.txt", "one")
            let second = try await harness.upload("/a/notes.txt", "two", mode: "overwrite")
            let id = try #require(first["id"] as? String)
            let latest = try Self.ok(
                try await harness.rpc("list_folder/get_latest_cursor", ["path": "", "recursive": true]))
            let cursor = try #require(latest["cursor"] as? String)

            let moved = try Self.ok(
                try await harness.rpc("move_v2", ["from_path": "/a/notes.txt", "to_path": "/b/Renamed.txt"]), "move")
            let metadata = try #require(moved["metadata"] as? [String: Any])
            #expect(metadata[".tag"] as? String == "file")
            #expect(metadata["id"] as? String == id)
            #expect(metadata["rev"] as? String == second["rev"] as? String)
            #expect(metadata["path_display"] as? String == "/b/Renamed.txt")
            #expect(metadata["name"] as? String == "Renamed.txt")

            let revisions = try Self.ok(try await harness.rpc("list_revisions", ["path": "/b/renamed.txt"]))
            let revs = try #require(revisions["entries"] as? [[String: Any]]).compactMap { $0["rev"] as? String }
            #expect(revs == [second["rev"] as? String, first["rev"] as? String].compactMap { $0 })
            let byID = try Self.ok(try await harness.rpc("get_metadata", ["path": id]))
            #expect(byID["path_lower"] as? String == "/b/renamed.txt")
            #expect(
                try Self.summary(try await harness.rpc("get_metadata", ["path": "/a/notes.txt"]))
                    == "path/not_found/...")
            let downloaded = try await harness.contentCall("download", ["path": "/b/renamed.txt"])
            #expect(String(decoding: downloaded.body, as: UTF8.self) == "two")

            let (changes, _) = try await ChangeLogTests.drain(harness, from: cursor)
            let seen = changes.map { "\($0[".tag"] as? String ?? "?") \($0["path_lower"] as? String ?? "?")" }
            #expect(Set(seen) == ["deleted /a/notes.txt", "folder /b", "file /b/renamed.txt"])
            #expect(try await Self.listing(harness) == ["/a", "/b", "/b/renamed.txt"])
        }
    }

    @Test("A case-only rename keeps the id; moving onto the very same path is duplicated_or_nested_paths")
    func caseOnlyRename() async throws {
        try await DropboxMockProvider().withSession { harness in
            let uploaded = try await harness.upload("/Case.txt", "c")
            let renamed = try Self.ok(
                try await harness.rpc("move_v2", ["from_path": "/Case.txt", "to_path": "/CASE.txt"]))
            let metadata = try #require(renamed["metadata"] as? [String: Any])
            #expect(metadata["id"] as? String == uploaded["id"] as? String)
            #expect(metadata["path_display"] as? String == "/CASE.txt")
            let page = try Self.ok(try await harness.rpc("list_folder", ["path": ""]))
            #expect((page["entries"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["CASE.txt"])
            let same = try await harness.rpc("move_v2", ["from_path": "/case.txt", "to_path": "/CASE.txt"])
            #expect(try Self.summary(same) == "duplicated_or_nested_paths/...")

            try await harness.upload("/Folder/inner.txt", "i")
            let folder = try Self.ok(try await harness.rpc("move_v2", ["from_path": "/Folder", "to_path": "/folder"]))
            #expect((folder["metadata"] as? [String: Any])?["path_display"] as? String == "/folder")
            let inner = try Self.ok(try await harness.rpc("get_metadata", ["path": "/FOLDER/INNER.TXT"]))
            #expect(inner["path_display"] as? String == "/folder/inner.txt")
        }
    }

    @Test("A copy is a new file with a new id and one revision of the same content; the source stays")
    func copyGetsNewIdentity() async throws {
        try await DropboxMockProvider().withSession { harness in
            try await harness.upload("/src.txt", "v1")
            let source = try await harness.upload("/src.txt", "v2", mode: "overwrite")
            let copied = try Self.ok(
                try await harness.rpc("copy_v2", ["from_path": "/src.txt", "to_path": "/copies/dst.txt"]))
            let metadata = try #require(copied["metadata"] as? [String: Any])
            #expect(metadata[".tag"] as? String == "file")
            #expect(metadata["id"] as? String != source["id"] as? String)
            #expect(metadata["rev"] as? String != source["rev"] as? String)
            #expect(metadata["content_hash"] as? String == source["content_hash"] as? String)
            #expect(metadata["client_modified"] as? String == source["client_modified"] as? String)
            let revisions = try Self.ok(try await harness.rpc("list_revisions", ["path": "/copies/dst.txt"]))
            #expect((revisions["entries"] as? [Any])?.count == 1)
            let downloaded = try await harness.contentCall("download", ["path": "/copies/dst.txt"])
            #expect(String(decoding: downloaded.body, as: UTF8.self) == "v2")
            #expect(try await Self.listing(harness) == ["/copies", "/copies/dst.txt", "/src.txt"])

            let again = try await harness.rpc("copy_v2", ["from_path": "/src.txt", "to_path": "/copies/dst.txt"])
            #expect(try Self.summary(again) == "to/conflict/file/...")
            let renamed = try Self.ok(
                try await harness.rpc(
                    "copy_v2", ["from_path": "/src.txt", "to_path": "/copies/dst.txt", "autorename": true]))
            #expect((renamed["metadata"] as? [String: Any])?["path_display"] as? String == "/copies/dst (1).txt")
            let byID = try Self.ok(
                try await harness.rpc(
                    "copy_v2", ["from_path": try #require(source["id"] as? String), "to_path": "/x.txt"]))
            #expect((byID["metadata"] as? [String: Any])?["path_lower"] as? String == "/x.txt")
        }
    }

    @Test("Conflicts and bad paths answer RelocationError unions (and 400 for a pattern mismatch)")
    func relocationErrors() async throws {
        try await DropboxMockProvider().withSession { harness in
            try await harness.upload("/one.txt", "1")
            try await harness.upload("/two.txt", "2")
            try await harness.upload("/dir/inside.txt", "i")

            let ontoFile = try await harness.rpc("move_v2", ["from_path": "/one.txt", "to_path": "/two.txt"])
            #expect(try Self.summary(ontoFile) == "to/conflict/file/...")
            let error = try #require(try DropboxHarness.object(ontoFile)["error"] as? [String: Any])
            #expect(error[".tag"] as? String == "to")
            let to = try #require(error["to"] as? [String: Any])
            #expect(to[".tag"] as? String == "conflict")
            #expect((to["conflict"] as? [String: Any])?[".tag"] as? String == "file")

            let ontoFolder = try await harness.rpc("move_v2", ["from_path": "/one.txt", "to_path": "/DIR"])
            #expect(try Self.summary(ontoFolder) == "to/conflict/folder/...")
            let autorenamed = try Self.ok(
                try await harness.rpc("move_v2", ["from_path": "/one.txt", "to_path": "/two.txt", "autorename": true]))
            #expect((autorenamed["metadata"] as? [String: Any])?["path_display"] as? String == "/two (1).txt")

            let missing = try await harness.rpc("move_v2", ["from_path": "/none.txt", "to_path": "/x.txt"])
            #expect(try Self.summary(missing) == "from_lookup/not_found/...")
            let unknownID = try await harness.rpc("copy_v2", ["from_path": "id:nothing", "to_path": "/x.txt"])
            #expect(try Self.summary(unknownID) == "from_lookup/not_found/...")
            let underFile = try await harness.rpc("copy_v2", ["from_path": "/two.txt", "to_path": "/two.txt/x.txt"])
            #expect(try Self.summary(underFile) == "to/conflict/file_ancestor/...")
            let malformedTo = try await harness.rpc("move_v2", ["from_path": "/two.txt", "to_path": "/a/../b.txt"])
            #expect(try Self.summary(malformedTo) == "to/malformed_path/...")
            let malformedFrom = try await harness.rpc("move_v2", ["from_path": "/a//b.txt", "to_path": "/b.txt"])
            #expect(try Self.summary(malformedFrom) == "from_lookup/malformed_path/...")

            let relative = try await harness.rpc("move_v2", ["from_path": "two.txt", "to_path": "/b.txt"])
            #expect(relative.status == 400)
            #expect(String(decoding: relative.body, as: UTF8.self).contains("from_path"))
            let missingField = try await harness.rpc("copy_v2", ["from_path": "/two.txt"])
            #expect(missingField.status == 400)
            let badFlag = try await harness.rpc(
                "move_v2", ["from_path": "/two.txt", "to_path": "/b.txt", "allow_ownership_transfer": "yes"])
            #expect(badFlag.status == 400)
            #expect(try await Self.listing(harness) == ["/dir", "/dir/inside.txt", "/two (1).txt", "/two.txt"])
        }
    }

    @Test("A folder moves with everything in it, ids kept; it cannot go into itself; a folder copy is recursive")
    func folderMoveAndCopy() async throws {
        try await DropboxMockProvider().withSession { harness in
            let inside = try await harness.upload("/dir/x.txt", "x")
            try await harness.upload("/dir/sub/y.txt", "y")
            let folderID = try #require(
                try Self.ok(try await harness.rpc("get_metadata", ["path": "/dir"]))["id"] as? String)

            let into = try await harness.rpc("move_v2", ["from_path": "/dir", "to_path": "/dir/sub/dir"])
            #expect(try Self.summary(into) == "cant_move_folder_into_itself/...")
            let copyInto = try await harness.rpc("copy_v2", ["from_path": "/dir", "to_path": "/Dir/inner"])
            #expect(try Self.summary(copyInto) == "duplicated_or_nested_paths/...")

            let moved = try Self.ok(try await harness.rpc("move_v2", ["from_path": "/dir", "to_path": "/moved/Dir2"]))
            let metadata = try #require(moved["metadata"] as? [String: Any])
            #expect(metadata[".tag"] as? String == "folder")
            #expect(metadata["id"] as? String == folderID)
            #expect(
                try await Self.listing(harness) == [
                    "/moved", "/moved/dir2", "/moved/dir2/sub", "/moved/dir2/sub/y.txt", "/moved/dir2/x.txt",
                ])
            let x = try Self.ok(try await harness.rpc("get_metadata", ["path": "/moved/dir2/x.txt"]))
            #expect(x["id"] as? String == inside["id"] as? String)
            #expect(x["path_display"] as? String == "/moved/Dir2/x.txt")
            let gone = try Self.ok(
                try await harness.rpc("get_metadata", ["path": "/dir/sub/y.txt", "include_deleted": true]))
            #expect(gone[".tag"] as? String == "deleted")

            let copied = try Self.ok(
                try await harness.rpc("copy_v2", ["from_path": "/moved/dir2", "to_path": "/copy"]))
            #expect((copied["metadata"] as? [String: Any])?["id"] as? String != folderID)
            let y = try Self.ok(try await harness.rpc("get_metadata", ["path": "/copy/sub/y.txt"]))
            let original = try Self.ok(try await harness.rpc("get_metadata", ["path": "/moved/dir2/sub/y.txt"]))
            #expect(y["id"] as? String != original["id"] as? String)
            #expect(y["content_hash"] as? String == original["content_hash"] as? String)
            let downloaded = try await harness.contentCall("download", ["path": "/copy/sub/y.txt"])
            #expect(String(decoding: downloaded.body, as: UTF8.self) == "y")
            #expect(try await Self.listing(harness, "/copy") == ["/copy/sub", "/copy/sub/y.txt", "/copy/x.txt"])
        }
    }

    @Test("A moved file's old path can be written again; the new file has an id of its own")
    func oldPathReused() async throws {
        try await DropboxMockProvider().withSession { harness in
            let first = try await harness.upload("/slot.txt", "a")
            _ = try Self.ok(try await harness.rpc("move_v2", ["from_path": "/slot.txt", "to_path": "/kept.txt"]))
            let again = try await harness.upload("/slot.txt", "b")
            #expect(again["id"] as? String != first["id"] as? String)
            let kept = try Self.ok(
                try await harness.rpc("get_metadata", ["path": try #require(first["id"] as? String)]))
            #expect(kept["path_lower"] as? String == "/kept.txt")
            // Moving back onto a deleted entry's path takes the path over.
            _ = try Self.ok(try await harness.rpc("delete_v2", ["path": "/slot.txt"]))
            let back = try Self.ok(
                try await harness.rpc("move_v2", ["from_path": "/kept.txt", "to_path": "/slot.txt"]))
            #expect((back["metadata"] as? [String: Any])?["id"] as? String == first["id"] as? String)
            let byOldID = try await harness.rpc("get_metadata", ["path": try #require(again["id"] as? String)])
            #expect(try Self.summary(byOldID) == "path/not_found/...")
        }
    }

    @Test("create_folder_v2 answers untagged FolderMetadata, creates ancestors, and answers path/conflict")
    func createFolder() async throws {
        try await DropboxMockProvider().withSession { harness in
            let created = try Self.ok(try await harness.rpc("create_folder_v2", ["path": "/New/Deep"]))
            let metadata = try #require(created["metadata"] as? [String: Any])
            #expect(metadata[".tag"] == nil)
            #expect(metadata["name"] as? String == "Deep")
            #expect(metadata["path_lower"] as? String == "/new/deep")
            #expect((metadata["id"] as? String)?.hasPrefix("id:") == true)
            #expect(try await Self.listing(harness) == ["/new", "/new/deep"])

            let again = try await harness.rpc("create_folder_v2", ["path": "/new/deep"])
            #expect(try Self.summary(again) == "path/conflict/folder/...")
            let error = try #require(try DropboxHarness.object(again)["error"] as? [String: Any])
            #expect(((error["path"] as? [String: Any])?["conflict"] as? [String: Any])?[".tag"] as? String == "folder")
            let renamed = try Self.ok(
                try await harness.rpc("create_folder_v2", ["path": "/new/deep", "autorename": true]))
            #expect((renamed["metadata"] as? [String: Any])?["name"] as? String == "deep (1)")

            try await harness.upload("/file.txt", "f")
            #expect(
                try Self.summary(try await harness.rpc("create_folder_v2", ["path": "/file.txt"]))
                    == "path/conflict/file/...")
            #expect(
                try Self.summary(try await harness.rpc("create_folder_v2", ["path": "/file.txt/sub"]))
                    == "path/conflict/file_ancestor/...")
            #expect(
                try Self.summary(try await harness.rpc("create_folder_v2", ["path": "/bad/"]))
                    == "path/malformed_path/...")
            #expect(try await harness.rpc("create_folder_v2", ["path": "nope"]).status == 400)
        }
    }

    @Test("delete_batch launches a job; its check answers in_progress, then each entry's success or DeleteError")
    func deleteBatch() async throws {
        try await DropboxMockProvider(options: .init(pendingJobChecks: 2)).withSession { harness in
            let a = try await harness.upload("/batch/a.txt", "a")
            try await harness.upload("/batch/b.txt", "b")
            try await harness.upload("/batch/sub/c.txt", "c")
            let launch = try Self.ok(
                try await harness.rpc(
                    "delete_batch",
                    [
                        "entries": [
                            ["path": "/batch/a.txt", "parent_rev": try #require(a["rev"] as? String)],
                            ["path": "/batch/missing.txt"],
                            ["path": "/batch/b.txt", "parent_rev": "0123456789abcdef"],
                            ["path": "/batch/sub"],
                            ["path": "/batch/a.txt"],
                            ["path": "/batch//x"],
                        ]
                    ]))
            #expect(launch[".tag"] as? String == "async_job_id")
            let job = try #require(launch["async_job_id"] as? String)
            #expect(job.hasPrefix("dbjid:"))
            for _ in 0..<2 {
                let pending = try Self.ok(try await harness.rpc("delete_batch/check", ["async_job_id": job]))
                #expect(pending[".tag"] as? String == "in_progress")
            }
            let done = try Self.ok(try await harness.rpc("delete_batch/check", ["async_job_id": job]))
            #expect(done[".tag"] as? String == "complete")
            let entries = try #require(done["entries"] as? [[String: Any]])
            #expect(
                entries.compactMap { $0[".tag"] as? String } == [
                    "success", "failure", "failure", "success", "failure", "failure",
                ])
            let deleted = try #require(entries[0]["metadata"] as? [String: Any])
            #expect(deleted[".tag"] as? String == "file")
            #expect(deleted["id"] as? String == a["id"] as? String)
            #expect((entries[3]["metadata"] as? [String: Any])?[".tag"] as? String == "folder")
            let summaries = entries.map { entry in
                (entry["failure"] as? [String: Any]).map { Self.tagChain($0) } ?? ""
            }
            #expect(
                summaries == [
                    "", "path_lookup/not_found", "path_write/conflict/file", "", "path_lookup/not_found",
                    "path_lookup/malformed_path",
                ])
            #expect(try await Self.listing(harness) == ["/batch", "/batch/b.txt"])
            let repeated = try Self.ok(try await harness.rpc("delete_batch/check", ["async_job_id": job]))
            #expect(repeated[".tag"] as? String == "complete")

            let unknown = try await harness.rpc("delete_batch/check", ["async_job_id": "dbjid:unknown"])
            #expect(try Self.summary(unknown) == "invalid_async_job_id/...")
            #expect(try await harness.rpc("delete_batch/check", ["async_job_id": ""]).status == 400)
            let badRev = try await harness.rpc(
                "delete_batch", ["entries": [["path": "/batch/b.txt", "parent_rev": "XYZ"]]])
            #expect(badRev.status == 400)
            #expect(try await harness.rpc("delete_batch", ["entries": [["parent_rev": "0123456789"]]]).status == 400)
            #expect(try await harness.rpc("delete_batch", [:]).status == 400)
            #expect(try await harness.rpc("delete_batch", ["entries": [["path": "relative"]]]).status == 400)
            #expect(try await Self.listing(harness) == ["/batch", "/batch/b.txt"])
        }
    }

    @Test("The routes need files.content.write")
    func scopes() async throws {
        try await DropboxMockProvider().withSession { harness in
            let readOnly = harness.authorization.issueTokens(scopes: ["files.metadata.read", "files.content.read"])
            let calls: [(String, [String: Any])] = [
                ("move_v2", ["from_path": "/a", "to_path": "/b"]),
                ("copy_v2", ["from_path": "/a", "to_path": "/b"]),
                ("create_folder_v2", ["path": "/a"]),
                ("delete_batch", ["entries": []]),
                ("delete_batch/check", ["async_job_id": "dbjid:x"]),
            ]
            for (route, arguments) in calls {
                let response = try await harness.rpc(route, arguments, token: .some(readOnly.accessToken))
                #expect(response.status == 401, "\(route)")
                let error = try DropboxHarness.object(response)["error"] as? [String: Any]
                #expect(error?[".tag"] as? String == "missing_scope", "\(route)")
                #expect(error?["required_scope"] as? String == "files.content.write", "\(route)")
            }
        }
    }
}
