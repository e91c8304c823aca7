import Foundation
import MockProviders
import StratusHTTP
import Testing

@Suite("Upload sessions")
struct UploadSessionTests {
    @Test("start, append_v2, finish; a wrong offset answers incorrect_offset with correct_offset")
    func session() async throws {
        try await DropboxMockProvider().withSession { harness in
            let part1 = Data(repeating: 0x41, count: 1000)
            let part2 = Data(repeating: 0x42, count: 500)
            let part3 = Data("tail".utf8)
            let started = try await harness.contentCall("upload_session/start", ["close": false], data: part1)
            #expect(started.status == 200)
            let sessionID = try #require(try DropboxHarness.object(started)["session_id"] as? String)

            let wrong = try await harness.contentCall(
                "upload_session/append_v2", ["cursor": ["session_id": sessionID, "offset": 7]], data: part2
            )
            #expect(wrong.status == 409)
            let wrongBody = try DropboxHarness.object(wrong)
            let error = try #require(wrongBody["error"] as? [String: Any])
            #expect(error[".tag"] as? String == "incorrect_offset")
            #expect(error["correct_offset"] as? Int == 1000)
            #expect(wrongBody["error_summary"] as? String == "incorrect_offset/...")

            let appended = try await harness.contentCall(
                "upload_session/append_v2",
                [
                    "cursor": ["session_id": sessionID, "offset": 1000],
                    "content_hash": DropboxHarness.contentHash(part2),
                ],
                data: part2
            )
            #expect(appended.status == 200)
            #expect(String(decoding: appended.body, as: UTF8.self) == "null")

            let staleFinish = try await harness.contentCall(
                "upload_session/finish",
                ["cursor": ["session_id": sessionID, "offset": 1000], "commit": ["path": "/big.bin"]],
                data: part3
            )
            #expect(staleFinish.status == 409)
            let staleError = try #require(try DropboxHarness.object(staleFinish)["error"] as? [String: Any])
            #expect(staleError[".tag"] as? String == "lookup_failed")
            let lookup = try #require(staleError["lookup_failed"] as? [String: Any])
            #expect(lookup[".tag"] as? String == "incorrect_offset")
            #expect(lookup["correct_offset"] as? Int == 1500)

            let finished = try await harness.contentCall(
                "upload_session/finish",
                ["cursor": ["session_id": sessionID, "offset": 1500], "commit": ["path": "/big.bin", "mode": "add"]],
                data: part3
            )
            #expect(finished.status == 200)
            let whole = part1 + part2 + part3
            let metadata = try DropboxHarness.object(finished)
            #expect(metadata["size"] as? Int == whole.count)
            #expect(metadata["content_hash"] as? String == DropboxHarness.contentHash(whole))
            let downloaded = try await harness.contentCall("download", ["path": "/big.bin"])
            #expect(downloaded.body == whole)

            let again = try await harness.contentCall(
                "upload_session/append_v2", ["cursor": ["session_id": sessionID, "offset": whole.count]], data: part3
            )
            #expect(again.status == 409)
            #expect(try DropboxHarness.object(again)["error_summary"] as? String == "not_found/...")
        }
    }

    @Test(
        "Appends are hashed as they arrive: a finish, and one repeated after a conflict, report the whole file's hash, also after a refused append",
        arguments: [false, true])
    func sessionHashedAsItArrives(refusingOne: Bool) async throws {
        try await DropboxMockProvider().withSession { harness in
            let parts = [Data(repeating: 0x41, count: 70_000), Data(repeating: 0x42, count: 5), Data("tail".utf8)]
            let whole = parts.reduce(Data(), +)
            let taken = try await harness.contentCall("upload", ["path": "/taken.bin"], data: Data("x".utf8))
            #expect(taken.status == 200)
            let started = try await harness.contentCall("upload_session/start", [:], data: parts[0])
            let sessionID = try #require(try DropboxHarness.object(started)["session_id"] as? String)
            let wrong = try await harness.contentCall(
                "upload_session/append_v2", ["cursor": ["session_id": sessionID, "offset": 3]], data: parts[1])
            #expect(wrong.status == 409)
            // A body that does not match its content_hash is taken back out, and the session's
            // running digests with it: the finish must still describe exactly the bytes kept.
            if refusingOne {
                let mismatched = try await harness.contentCall(
                    "upload_session/append_v2",
                    [
                        "cursor": ["session_id": sessionID, "offset": parts[0].count],
                        "content_hash": DropboxHarness.contentHash(parts[2]),
                    ],
                    data: parts[1])
                #expect(
                    try DropboxHarness.object(mismatched)["error_summary"] as? String == "content_hash_mismatch/...")
            }
            let appended = try await harness.contentCall(
                "upload_session/append_v2",
                [
                    "cursor": ["session_id": sessionID, "offset": parts[0].count],
                    "content_hash": DropboxHarness.contentHash(parts[1]),
                ],
                data: parts[1])
            #expect(appended.status == 200)
            let offset = parts[0].count + parts[1].count
            let conflicted = try await harness.contentCall(
                "upload_session/finish",
                [
                    "cursor": ["session_id": sessionID, "offset": offset],
                    "commit": ["path": "/taken.bin", "mode": "add"],
                ],
                data: parts[2])
            #expect(conflicted.status == 409)
            let finished = try await harness.contentCall(
                "upload_session/finish",
                ["cursor": ["session_id": sessionID, "offset": whole.count], "commit": ["path": "/free.bin"]],
                data: Data())
            #expect(finished.status == 200)
            let metadata = try DropboxHarness.object(finished)
            #expect(metadata["size"] as? Int == whole.count)
            #expect(metadata["content_hash"] as? String == DropboxHarness.contentHash(whole))
            let downloaded = try await harness.contentCall("download", ["path": "/free.bin"])
            #expect(downloaded.body == whole)
        }
    }

    @Test("A closed session refuses more data")
    func closed() async throws {
        try await DropboxMockProvider().withSession { harness in
            let started = try await harness.contentCall("upload_session/start", ["close": true], data: Data("abc".utf8))
            let sessionID = try #require(try DropboxHarness.object(started)["session_id"] as? String)
            let appended = try await harness.contentCall(
                "upload_session/append_v2", ["cursor": ["session_id": sessionID, "offset": 3]], data: Data("d".utf8)
            )
            #expect(appended.status == 409)
            #expect(try DropboxHarness.object(appended)["error_summary"] as? String == "closed/...")
        }
    }

    @Test("A body over the upload limit is payload_too_large")
    func tooLarge() async throws {
        try await DropboxMockProvider(options: .init(maxUploadBytes: 1024)).withSession { harness in
            let response = try await harness.contentCall("upload", ["path": "/huge.bin"], data: Data(count: 4096))
            #expect(response.status == 409)
            #expect(try DropboxHarness.object(response)["error_summary"] as? String == "payload_too_large/...")
        }
    }

    @Test("The upload_session_id of a conflicted upload finishes the same bytes elsewhere")
    func retryConflictThroughSession() async throws {
        try await DropboxMockProvider().withSession { harness in
            try await harness.upload("/taken.txt", "original")
            let conflict = try await harness.contentCall(
                "upload", ["path": "/taken.txt", "mode": "add"], data: Data("newer".utf8))
            #expect(conflict.status == 409)
            let error = try #require(try DropboxHarness.object(conflict)["error"] as? [String: Any])
            let sessionID = try #require(error["upload_session_id"] as? String)
            #expect(!sessionID.isEmpty)
            let withData = try await harness.contentCall(
                "upload_session/append_v2", ["cursor": ["session_id": sessionID, "offset": 5]], data: Data("x".utf8)
            )
            #expect(try DropboxHarness.object(withData)["error_summary"] as? String == "closed/...")
            let finished = try await harness.contentCall(
                "upload_session/finish",
                ["cursor": ["session_id": sessionID, "offset": 5], "commit": ["path": "/taken (copy).txt"]]
            )
            #expect(finished.status == 200)
            let copy = try await harness.contentCall("download", ["path": "/taken (copy).txt"])
            #expect(String(decoding: copy.body, as: UTF8.self) == "newer")
            let original = try await harness.contentCall("download", ["path": "/taken.txt"])
            #expect(String(decoding: original.body, as: UTF8.self) == "original")
        }
    }
}
