import Foundation
import MockProviders
import StratusHTTP
import Testing

@Suite("Wire shapes")
struct WireShapeTests {
    @Test("A missing or unknown token is 401 invalid_access_token; an expired one expired_access_token")
    func unauthorized() async throws {
        try await DropboxMockProvider().withSession { harness in
            let missing = try await harness.rpc("list_folder", ["path": ""], token: .some(nil))
            #expect(missing.status == 401)
            #expect(missing.headers["Content-Type"] == "application/json")
            let missingBody = try DropboxHarness.object(missing)
            #expect((missingBody["error"] as? [String: Any])?[".tag"] as? String == "invalid_access_token")
            #expect((missingBody["error_summary"] as? String)?.hasPrefix("invalid_access_token/") == true)

            let unknown = try await harness.rpc("list_folder", ["path": ""], token: "sl.not-a-token")
            #expect(unknown.status == 401)

            harness.authorization.expireAllAccessTokens()
            let expired = try await harness.rpc("list_folder", ["path": ""])
            #expect(expired.status == 401)
            let expiredBody = try DropboxHarness.object(expired)
            #expect((expiredBody["error"] as? [String: Any])?[".tag"] as? String == "expired_access_token")
            #expect((expiredBody["error_summary"] as? String)?.hasPrefix("expired_access_token/") == true)
        }
    }

    @Test("Results and route errors carry Content-Type exactly application/json")
    func contentType() async throws {
        try await DropboxMockProvider().withSession { harness in
            try await harness.upload("/x.txt", "x")
            let ok = try await harness.rpc("list_folder", ["path": ""])
            #expect(ok.status == 200)
            #expect(ok.headers["Content-Type"] == "application/json")
            let notFound = try await harness.rpc("get_metadata", ["path": "/nope"])
            #expect(notFound.status == 409)
            #expect(notFound.headers["Content-Type"] == "application/json")
        }
    }

    @Test("A Dropbox-API-Arg with \\u00e9 escapes names the file with é; the result header is ASCII")
    func escapedArgument() async throws {
        try await DropboxMockProvider().withSession { harness in
            let header = try DropboxHarness.asciiJSON(["path": "/café.txt"])
            #expect(header.contains("\\u00e9"))
            let uploaded = try await harness.contentCall("upload", ["path": "/café.txt"], data: Data("x".utf8))
            #expect(uploaded.status == 200)
            #expect(try DropboxHarness.object(uploaded)["name"] as? String == "café.txt")
            let downloaded = try await harness.contentCall("download", ["path": "/CAFÉ.txt"])
            #expect(downloaded.status == 200)
            let result = try #require(downloaded.headers["Dropbox-API-Result"])
            #expect(result.utf8.allSatisfy { $0 < 0x80 })
            #expect(result.contains("\\u00e9"))
            let decoded = try #require(JSONSerialization.jsonObject(with: Data(result.utf8)) as? [String: Any])
            #expect(decoded["path_display"] as? String == "/café.txt")
        }
    }

    @Test("Arguments that are not JSON are a 400 in plain text")
    func badInput() async throws {
        try await DropboxMockProvider().withSession { harness in
            var headers = harness.headers(token: harness.token)
            headers.set("Content-Type", "application/json")
            let response = try await harness.client.execute(
                StratusHTTPRequest(
                    method: .post, url: harness.url("get_metadata"), headers: headers, body: .bytes(Data("{nope".utf8)))
            )
            #expect(response.status == 400)
            #expect(response.headers["Content-Type"]?.hasPrefix("text/plain") == true)
            #expect(
                String(decoding: response.body, as: UTF8.self).contains(
                    "Error in call to API function \"files/get_metadata\""))
        }
    }
}
