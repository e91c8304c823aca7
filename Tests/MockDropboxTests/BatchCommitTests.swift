import Foundation
import MockProviders
import StratusHTTP
import Testing

@Suite("Batch commits", .timeLimit(.minutes(2)))
struct BatchCommitTests {
    @Test(
        "finish_batch_v2 answers one entry per argument, in order: successes beside a stale update, an open session, a wrong offset, an unknown session"
    )
    func perEntryResults() async throws {
        try await DropboxMockProvider().withSession { harness in
            let first = try await harness.upload("/doc.txt", "first")
            let current = try await harness.upload("/doc.txt", "current", mode: "overwrite")
            let staleRev = try #require(first["rev"] as? String)

            let alpha = try await harness.closedSession(Data("alpha".utf8))
            let stale = try await harness.closedSession(Data("stale".utf8))
            let open = try await harness.openSession(Data("open".utf8))
            let offset = try await harness.closedSession(Data("offset".utf8))
            let renamed = try await harness.closedSession(Data("renamed".utf8))
            let entries: [[String: Any]] = [
                harness.entry(alpha, 5, path: "/batch/alpha.txt"),
                harness.entry(stale, 5, path: "/doc.txt", mode: [".tag": "update", "update": staleRev]),
                harness.entry(open, 4, path: "/batch/open.txt"),
                harness.entry(offset, 2, path: "/batch/offset.txt"),
                harness.entry("pid_upload_session:unknown", 0, path: "/batch/unknown.txt"),
                harness.entry(renamed, 7, path: "/doc.txt", autorename: true),
            ]
            let response = try await harness.rpc("upload_session/finish_batch_v2", ["entries": entries])
            #expect(response.status == 200)
            let results = try #require(try DropboxHarness.object(response)["entries"] as? [[String: Any]])
            #expect(results.count == 6)
            #expect(
                results.map { $0[".tag"] as? String } == [
                    "success", "failure", "failure", "failure", "failure", "success",
                ])

            #expect(results[0]["path_display"] as? String == "/batch/alpha.txt")
            #expect(results[0]["size"] as? Int == 5)
            #expect(results[0]["content_hash"] as? String == DropboxHarness.contentHash(Data("alpha".utf8)))
            #expect(results[0]["rev"] is String)

            let conflict = try Self.failure(results[1])
            #expect(conflict[".tag"] as? String == "path")
            #expect((conflict["path"] as? [String: Any])?[".tag"] as? String == "conflict")
            let conflictKind = (conflict["path"] as? [String: Any])?["conflict"] as? [String: Any]
            #expect(conflictKind?[".tag"] as? String == "file")

            let notClosed = try Self.failure(results[2])
            #expect(notClosed[".tag"] as? String == "lookup_failed")
            #expect((notClosed["lookup_failed"] as? [String: Any])?[".tag"] as? String == "not_closed")

            let wrongOffset = try Self.failure(results[3])
            let lookup = try #require(wrongOffset["lookup_failed"] as? [String: Any])
            #expect(lookup[".tag"] as? String == "incorrect_offset")
            #expect(lookup["correct_offset"] as? Int == 6)

            let unknown = try Self.failure(results[4])
            #expect((unknown["lookup_failed"] as? [String: Any])?[".tag"] as? String == "not_found")

            #expect(results[5]["path_display"] as? String == "/doc (1).txt")

            // The stale update left the file alone; the committed entries are readable.
            let doc = try DropboxHarness.object(try await harness.rpc("get_metadata", ["path": "/doc.txt"]))
            #expect(doc["rev"] as? String == current["rev"] as? String)
            #expect(try await harness.contentCall("download", ["path": "/batch/alpha.txt"]).body == Data("alpha".utf8))
            #expect(try await harness.contentCall("download", ["path": "/doc (1).txt"]).body == Data("renamed".utf8))
            #expect(try await harness.rpc("get_metadata", ["path": "/batch/open.txt"]).status == 409)

            // Failed entries keep their sessions: closed now, the open one commits; the stale
            // one commits with a mode that fits.
            let closing = try await harness.contentCall(
                "upload_session/append_v2", ["cursor": ["session_id": open, "offset": 4], "close": true])
            #expect(closing.status == 200)
            let retry = try await harness.rpc(
                "upload_session/finish_batch_v2",
                [
                    "entries": [
                        harness.entry(open, 4, path: "/batch/open.txt"),
                        harness.entry(stale, 5, path: "/doc.txt", mode: "overwrite"),
                        harness.entry(offset, 6, path: "/batch/offset.txt"),
                    ]
                ])
            let retried = try #require(try DropboxHarness.object(retry)["entries"] as? [[String: Any]])
            #expect(retried.map { $0[".tag"] as? String } == ["success", "success", "success"])
            #expect(try await harness.contentCall("download", ["path": "/doc.txt"]).body == Data("stale".utf8))
        }
    }

    @Test("An entry whose property groups do not fit, or whose path is malformed, fails alone")
    func entryArgumentFailures() async throws {
        try await DropboxMockProvider().withSession { harness in
            let good = try await harness.closedSession(Data("good".utf8))
            let props = try await harness.closedSession(Data("props".utf8))
            let malformed = try await harness.closedSession(Data("bad".utf8))
            var withGroups = harness.entry(props, 5, path: "/props.txt")
            withGroups["commit"] = [
                "path": "/props.txt",
                "property_groups": [["template_id": "ptid:nothere", "fields": [] as [Any]]],
            ]
            let response = try await harness.rpc(
                "upload_session/finish_batch_v2",
                [
                    "entries": [
                        withGroups, harness.entry(malformed, 3, path: "/a/../b.txt"),
                        harness.entry(good, 4, path: "/good.txt"),
                    ]
                ])
            #expect(response.status == 200)
            let results = try #require(try DropboxHarness.object(response)["entries"] as? [[String: Any]])
            #expect(results.map { $0[".tag"] as? String } == ["failure", "failure", "success"])
            let properties = try Self.failure(results[0])
            #expect(properties[".tag"] as? String == "properties_error")
            #expect((properties["properties_error"] as? [String: Any])?[".tag"] as? String == "template_not_found")
            let path = try Self.failure(results[1])
            #expect((path["path"] as? [String: Any])?[".tag"] as? String == "malformed_path")
        }
    }

    @Test("Malformed batch arguments answer 400 and commit nothing; more than 1000 entries are refused")
    func badInput() async throws {
        try await DropboxMockProvider().withSession { harness in
            let session = try await harness.closedSession(Data("x".utf8))
            let badMode = try await harness.rpc(
                "upload_session/finish_batch_v2",
                [
                    "entries": [
                        harness.entry(session, 1, path: "/ok.txt"),
                        harness.entry(session, 1, path: "/bad.txt", mode: "sideways"),
                    ]
                ])
            #expect(badMode.status == 400)
            #expect(String(decoding: badMode.body, as: UTF8.self).contains("mode"))
            #expect(try await harness.rpc("get_metadata", ["path": "/ok.txt"]).status == 409)

            let missing = try await harness.rpc("upload_session/finish_batch_v2", [:])
            #expect(missing.status == 400)
            #expect(String(decoding: missing.body, as: UTF8.self).contains("entries: missing required field"))

            let tooMany = Array(repeating: harness.entry(session, 1, path: "/many.txt"), count: 1001)
            for route in ["upload_session/finish_batch_v2", "upload_session/finish_batch"] {
                let refused = try await harness.rpc(route, ["entries": tooMany])
                #expect(refused.status == 400)
                #expect(String(decoding: refused.body, as: UTF8.self).contains("1000"))
            }
            let full = Array(repeating: harness.entry(session, 1, path: "/many.txt"), count: 1000)
            let accepted = try await harness.rpc("upload_session/finish_batch_v2", ["entries": full])
            let results = try #require(try DropboxHarness.object(accepted)["entries"] as? [[String: Any]])
            #expect(results.count == 1000)
            #expect(results.first?[".tag"] as? String == "success")
            // The one session was committed by the first entry; the others find it gone.
            #expect(results.dropFirst().allSatisfy { $0[".tag"] as? String == "failure" })
        }
    }

    @Test("finish_batch answers an async_job_id; check answers complete with the entries, 409 for an unknown id")
    func asyncJob() async throws {
        try await DropboxMockProvider().withSession { harness in
            let one = try await harness.closedSession(Data("one".utf8))
            let open = try await harness.openSession(Data("open".utf8))
            let launched = try await harness.rpc(
                "upload_session/finish_batch",
                ["entries": [harness.entry(one, 3, path: "/job/one.txt"), harness.entry(open, 4, path: "/job/o.txt")]])
            #expect(launched.status == 200)
            let launch = try DropboxHarness.object(launched)
            #expect(launch[".tag"] as? String == "async_job_id")
            let job = try #require(launch["async_job_id"] as? String)

            let done = try await harness.completedBatch(job)
            let entries = try #require(done["entries"] as? [[String: Any]])
            #expect(entries.map { $0[".tag"] as? String } == ["success", "failure"])
            #expect(entries[0]["path_lower"] as? String == "/job/one.txt")
            // A finished job answers the same on every later check.
            #expect(try await harness.completedBatch(job)["entries"] as? [[String: Any]] != nil)

            let unknown = try await harness.rpc("upload_session/finish_batch/check", ["async_job_id": "dbjid:nope"])
            #expect(unknown.status == 409)
            let error = try DropboxHarness.object(unknown)
            #expect(error["error_summary"] as? String == "invalid_async_job_id/...")
            #expect((error["error"] as? [String: Any])?[".tag"] as? String == "invalid_async_job_id")
            let empty = try await harness.rpc("upload_session/finish_batch/check", ["async_job_id": ""])
            #expect(empty.status == 400)
        }
    }

    @Test("The batch routes need files.content.write")
    func scope() async throws {
        try await DropboxMockProvider().withSession { harness in
            let readOnly = harness.authorization.issueTokens(scopes: ["files.metadata.read"]).accessToken
            for (route, arguments) in [
                ("upload_session/finish_batch_v2", ["entries": [] as [Any]]),
                ("upload_session/finish_batch", ["entries": [] as [Any]]),
                ("upload_session/finish_batch/check", ["async_job_id": "dbjid:x"]),
            ] as [(String, [String: Any])] {
                let refused = try await harness.rpc(route, arguments, token: readOnly)
                #expect(refused.status == 401)
                let error = try #require(try DropboxHarness.object(refused)["error"] as? [String: Any])
                #expect(error["required_scope"] as? String == "files.content.write")
            }
        }
    }

    /// The `UploadSessionFinishError` of a `failure` entry.
    static func failure(_ entry: [String: Any]) throws -> [String: Any] {
        #expect(entry[".tag"] as? String == "failure")
        return try #require(entry["failure"] as? [String: Any])
    }
}

extension DropboxHarness {
    /// Starts an upload session holding `data`, closed.
    func closedSession(_ data: Data) async throws -> String {
        let started = try await contentCall("upload_session/start", ["close": true], data: data)
        #expect(started.status == 200)
        return try #require(try Self.object(started)["session_id"] as? String)
    }

    /// Starts an upload session holding `data`, left open.
    func openSession(_ data: Data) async throws -> String {
        let started = try await contentCall("upload_session/start", [:], data: data)
        #expect(started.status == 200)
        return try #require(try Self.object(started)["session_id"] as? String)
    }

    /// One `UploadSessionFinishArg` of a batch.
    func entry(
        _ session: String, _ offset: Int, path: String, mode: Any = "add", autorename: Bool = false
    ) -> [String: Any] {
        [
            "cursor": ["session_id": session, "offset": offset],
            "commit": ["path": path, "mode": mode, "autorename": autorename],
        ]
    }

    /// Checks an `upload_session/finish_batch` job until it is complete.
    /// - Returns: The `complete` answer.
    func completedBatch(_ job: String) async throws -> [String: Any] {
        while true {
            let checked = try await rpc("upload_session/finish_batch/check", ["async_job_id": job])
            #expect(checked.status == 200)
            let answer = try Self.object(checked)
            if answer[".tag"] as? String == "complete" { return answer }
            #expect(answer[".tag"] as? String == "in_progress")
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
