import Foundation
import MockProviders
import StratusHTTP
import Testing

@Suite("Upload and download")
struct UploadDownloadTests {
    @Test("An upload downloads back byte for byte, with a matching content_hash")
    func roundTrip() async throws {
        try await DropboxMockProvider().withSession { harness in
            let data = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            let hash = DropboxHarness.contentHash(data)
            let uploaded = try await harness.contentCall(
                "upload", ["path": "/Saves/slot1.dat", "mode": "add", "content_hash": hash], data: data
            )
            #expect(uploaded.status == 200)
            #expect(uploaded.headers["Content-Type"] == "application/json")
            let metadata = try DropboxHarness.object(uploaded)
            #expect(metadata["content_hash"] as? String == hash)
            #expect(metadata["size"] as? Int == data.count)
            #expect(metadata["path_display"] as? String == "/Saves/slot1.dat")
            #expect(metadata[".tag"] == nil, "FileMetadata results carry no .tag")
            let rev = try #require(metadata["rev"] as? String)
            #expect(rev.count >= 9 && rev.allSatisfy { $0.isHexDigit && !$0.isUppercase })
            #expect((metadata["id"] as? String)?.hasPrefix("id:") == true)
            let modified = try #require(metadata["server_modified"] as? String)
            #expect(modified.count == 20 && modified.hasSuffix("Z"))

            let downloaded = try await harness.contentCall("download", ["path": "/saves/SLOT1.dat"])
            #expect(downloaded.status == 200)
            #expect(downloaded.body == data)
            #expect(DropboxHarness.contentHash(downloaded.body) == hash)
            let resultHeader = try #require(downloaded.headers["Dropbox-API-Result"])
            let result = try #require(JSONSerialization.jsonObject(with: Data(resultHeader.utf8)) as? [String: Any])
            #expect(result["rev"] as? String == rev)

            let byID = try await harness.contentCall("download", ["path": try #require(metadata["id"] as? String)])
            #expect(byID.body == data)
            let byRev = try await harness.contentCall("download", ["path": "rev:" + rev])
            #expect(byRev.body == data)

            let ranged = try await harness.contentCall(
                "download", ["path": "/Saves/slot1.dat"], extraHeaders: [("Range", "bytes=10-19")])
            #expect(ranged.status == 206)
            #expect(ranged.body == data[10..<20])
            #expect(ranged.headers["Content-Range"] == "bytes 10-19/\(data.count)")
        }
    }

    @Test("A wrong content_hash is refused with 409 content_hash_mismatch and nothing is stored")
    func hashMismatch() async throws {
        try await DropboxMockProvider().withSession { harness in
            let response = try await harness.contentCall(
                "upload", ["path": "/a.txt", "content_hash": String(repeating: "0", count: 64)],
                data: Data("hello".utf8)
            )
            #expect(response.status == 409)
            let body = try DropboxHarness.object(response)
            #expect((body["error"] as? [String: Any])?[".tag"] as? String == "content_hash_mismatch")
            #expect((body["error_summary"] as? String)?.hasPrefix("content_hash_mismatch/") == true)
            let lookup = try await harness.rpc("get_metadata", ["path": "/a.txt"])
            #expect(lookup.status == 409)
        }
    }

    @Test("Update mode with a stale rev is a path/conflict/file with the UploadWriteFailed shape")
    func staleUpdate() async throws {
        try await DropboxMockProvider().withSession { harness in
            let first = try await harness.upload("/doc.txt", "one")
            let firstRev = try #require(first["rev"] as? String)
            try await harness.upload("/doc.txt", "two", mode: "overwrite")
            let response = try await harness.contentCall(
                "upload", ["path": "/doc.txt", "mode": [".tag": "update", "update": firstRev]], data: Data("three".utf8)
            )
            #expect(response.status == 409)
            let body = try DropboxHarness.object(response)
            let error = try #require(body["error"] as? [String: Any])
            #expect(error[".tag"] as? String == "path")
            #expect(error["upload_session_id"] is String)
            let reason = try #require(error["reason"] as? [String: Any])
            #expect(reason[".tag"] as? String == "conflict")
            #expect((reason["conflict"] as? [String: Any])?[".tag"] as? String == "file")
            #expect(body["error_summary"] as? String == "path/conflict/file/...")

            let add = try await harness.contentCall(
                "upload", ["path": "/DOC.txt", "mode": "add"], data: Data("four".utf8))
            #expect(add.status == 409, "add on an existing path (any case) conflicts")
        }
    }

    @Test("Paths are case-insensitive and keep the case they were created with")
    func caseInsensitive() async throws {
        try await DropboxMockProvider().withSession { harness in
            try await harness.upload("/Games/Delta/Save.SAV", "x")
            let response = try await harness.rpc("get_metadata", ["path": "/games/DELTA/save.sav"])
            #expect(response.status == 200)
            let metadata = try DropboxHarness.object(response)
            #expect(metadata[".tag"] as? String == "file")
            #expect(metadata["path_display"] as? String == "/Games/Delta/Save.SAV")
            #expect(metadata["path_lower"] as? String == "/games/delta/save.sav")
            let folder = try DropboxHarness.object(try await harness.rpc("get_metadata", ["path": "/GAMES"]))
            #expect(folder[".tag"] as? String == "folder")
            #expect(folder["name"] as? String == "Games")
        }
    }

    @Test("Paths with .. or control characters are malformed_path; the root is bad input")
    func malformedPaths() async throws {
        try await DropboxMockProvider().withSession { harness in
            let dots = try await harness.contentCall("upload", ["path": "/a/../b.txt"], data: Data("x".utf8))
            #expect(dots.status == 409)
            #expect(try DropboxHarness.object(dots)["error_summary"] as? String == "path/malformed_path/...")
            let control = try await harness.rpc("get_metadata", ["path": "/a\u{01}b"])
            #expect(control.status == 409)
            #expect(try DropboxHarness.object(control)["error_summary"] as? String == "path/malformed_path/...")
            let root = try await harness.rpc("get_metadata", ["path": ""])
            #expect(root.status == 400)
            #expect(root.headers["Content-Type"]?.hasPrefix("text/plain") == true)
            #expect(
                String(decoding: root.body, as: UTF8.self).hasPrefix(
                    "Error in call to API function \"files/get_metadata\""))
        }
    }
}
