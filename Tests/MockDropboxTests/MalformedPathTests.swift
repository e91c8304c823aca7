import Foundation
import MockDropbox
import MockProviders
import StratusHTTP
import Testing

/// Every route that takes a path refuses one Dropbox cannot use with a 409 whose error is the
/// route's own union around `malformed_path` (`files.stone`: `LookupError`, `WriteError`, or
/// `UploadWriteFailed` for `upload`), and leaves nothing behind.
@Suite("malformed paths")
struct MalformedPathTests {
    /// Paths that match the routes' patterns (they start with `/`) but name nothing Dropbox can
    /// store: dot segments, empty components, a trailing slash, NUL and other control characters.
    static let malformed: [String] = [
        "/a/../b.txt", "/..", "/a/..", "/a/./b.txt", "/.", "/a//b.txt", "/a/", "/",
        "/a\u{0}b.txt", "/a\u{1}b.txt", "/a\tb.txt", "/a\nb.txt", "/a\rb.txt", "/a\u{1B}b.txt", "/a\u{1F}b.txt",
        "/a\u{7F}b.txt",
    ]

    /// The 409 body's `error_summary` and `error`.
    private static func conflict(_ response: StratusHTTPResponse, _ route: String, _ path: String) throws -> (
        summary: String?, error: [String: Any]
    ) {
        #expect(
            response.status == 409,
            "\(route) \(path.debugDescription): \(String(decoding: response.body, as: UTF8.self))")
        let body = try DropboxHarness.object(response)
        return (body["error_summary"] as? String, try #require(body["error"] as? [String: Any]))
    }

    /// The tag of a union member nested under `tag` (`{".tag": tag, tag: {".tag": ...}}`).
    private static func innerTag(_ error: [String: Any], _ tag: String) -> String? {
        (error[tag] as? [String: Any])?[".tag"] as? String
    }

    @Test("RPC routes answer 409 with malformed_path inside their own union", arguments: MalformedPathTests.malformed)
    func rpcRoutes(path: String) async throws {
        try await DropboxMockProvider().withSession { harness in
            // (route, arguments, the route error's member that carries the LookupError)
            let calls: [(String, [String: Any], String)] = [
                ("get_metadata", ["path": path], "path"),
                ("delete_v2", ["path": path], "path_lookup"),
                ("list_revisions", ["path": path], "path"),
                ("restore", ["path": path, "rev": "a1c10ce0dd78"], "path_lookup"),
            ]
            for (route, arguments, member) in calls {
                let (summary, error) = try Self.conflict(try await harness.rpc(route, arguments), route, path)
                #expect(summary == "\(member)/malformed_path/...", "\(route) \(path.debugDescription)")
                #expect(error[".tag"] as? String == member)
                #expect(Self.innerTag(error, member) == "malformed_path", "\(route) \(path.debugDescription)")
            }
        }
    }

    @Test(
        "list_folder and get_latest_cursor answer path/malformed_path",
        arguments: MalformedPathTests.malformed.filter { $0 != "/" })
    func listRoutes(path: String) async throws {
        try await DropboxMockProvider().withSession { harness in
            for route in ["list_folder", "list_folder/get_latest_cursor"] {
                let (summary, error) = try Self.conflict(try await harness.rpc(route, ["path": path]), route, path)
                #expect(summary == "path/malformed_path/...")
                #expect(Self.innerTag(error, "path") == "malformed_path")
            }
        }
    }

    @Test("download answers path/malformed_path", arguments: MalformedPathTests.malformed)
    func download(path: String) async throws {
        try await DropboxMockProvider().withSession { harness in
            let (summary, error) = try Self.conflict(
                try await harness.contentCall("download", ["path": path]), "download", path)
            #expect(summary == "path/malformed_path/...")
            #expect(Self.innerTag(error, "path") == "malformed_path")
        }
    }

    @Test(
        "upload answers path (UploadWriteFailed) with reason malformed_path and stores nothing",
        arguments: MalformedPathTests.malformed)
    func upload(path: String) async throws {
        try await DropboxMockProvider().withSession { harness in
            let response = try await harness.contentCall(
                "upload", ["path": path, "mode": "add"], data: Data("save".utf8))
            let (summary, error) = try Self.conflict(response, "upload", path)
            #expect(summary == "path/malformed_path/...")
            #expect(error[".tag"] as? String == "path")
            // UploadWriteFailed is a struct: its members sit beside the tag, not under it.
            #expect((error["reason"] as? [String: Any])?[".tag"] as? String == "malformed_path")
            #expect(error["upload_session_id"] is String)
            let listing = try DropboxHarness.object(
                try await harness.rpc("list_folder", ["path": "", "recursive": true]))
            #expect((listing["entries"] as? [Any])?.isEmpty == true, "\(listing)")
        }
    }

    @Test(
        "upload_session/finish answers path/malformed_path and keeps the session for a retry",
        arguments: MalformedPathTests.malformed)
    func finish(path: String) async throws {
        try await DropboxMockProvider().withSession { harness in
            let data = Data("session bytes".utf8)
            let started = try DropboxHarness.object(
                try await harness.contentCall("upload_session/start", [:], data: data))
            let session = try #require(started["session_id"] as? String)
            let cursor: [String: Any] = ["session_id": session, "offset": data.count]
            let refused = try await harness.contentCall(
                "upload_session/finish", ["cursor": cursor, "commit": ["path": path]])
            let (summary, error) = try Self.conflict(refused, "upload_session/finish", path)
            #expect(summary == "path/malformed_path/...")
            #expect(Self.innerTag(error, "path") == "malformed_path")
            // The refusal committed nothing and did not use up the session.
            let retried = try await harness.contentCall(
                "upload_session/finish", ["cursor": cursor, "commit": ["path": "/fixed.txt"]])
            #expect(retried.status == 200, "\(String(decoding: retried.body, as: UTF8.self))")
            #expect(try DropboxHarness.object(retried)["size"] as? Int == data.count)
        }
    }

    @Test("a path that does not start with / is a 400 pattern error, not malformed_path")
    func relativePaths() async throws {
        try await DropboxMockProvider().withSession { harness in
            for path in ["a/b.txt", "C:\\saves\\b.txt", "..", "~/b.txt"] {
                let response = try await harness.rpc("get_metadata", ["path": path])
                #expect(response.status == 400, "\(path.debugDescription)")
                let text = String(decoding: response.body, as: UTF8.self)
                #expect(text.hasPrefix("Error in call to API function \"files/get_metadata\""), "\(text)")
                #expect(text.contains("did not match pattern"), "\(text)")
                let upload = try await harness.contentCall("upload", ["path": path], data: Data("x".utf8))
                #expect(upload.status == 400, "\(path.debugDescription)")
            }
        }
    }

    @Test("list_folder takes \"\" for the root and refuses \"/\" with Dropbox's 400")
    func listRoot() async throws {
        try await DropboxMockProvider().withSession { harness in
            try await harness.upload("/kept.txt", "x")
            let listed = try DropboxHarness.object(try await harness.rpc("list_folder", ["path": ""]))
            #expect(
                (listed["entries"] as? [[String: Any]])?.compactMap { $0["path_display"] as? String } == ["/kept.txt"])
            let slash = try await harness.rpc("list_folder", ["path": "/"])
            #expect(slash.status == 400)
            #expect(
                String(decoding: slash.body, as: UTF8.self)
                    == "Error in call to API function \"files/list_folder\": request body: path: Specify the root folder as an empty string rather than as \"/\"."
            )
        }
    }

    @Test("a well-formed path next to the refused ones still works, also with an id in list_revisions path mode")
    func wellFormed() async throws {
        try await DropboxMockProvider().withSession { harness in
            let uploaded = try await harness.upload("/a/b.txt", "kept")
            let metadata = try DropboxHarness.object(try await harness.rpc("get_metadata", ["path": "/a/b.txt"]))
            #expect(metadata["path_display"] as? String == "/a/b.txt")
            let id = try #require(uploaded["id"] as? String)
            let revisions = try await harness.rpc("list_revisions", ["path": id])
            #expect(revisions.status == 200, "\(String(decoding: revisions.body, as: UTF8.self))")
            #expect((try DropboxHarness.object(revisions)["entries"] as? [Any])?.count == 1)
        }
    }
}
