import Foundation
import MockDrive
import MockProviders
import MockSupport
import StratusHTTP
import Testing

@Suite("authorization, error shapes, wire details and the request log")
struct AuthAndWireTests {
    @Test("no token: 401 required; unknown or expired token: 401 authError with WWW-Authenticate")
    func unauthorized() async throws {
        try await DriveMockProvider().withSession { harness in
            let none = try await harness.send(.get, "/drive/v3/files", token: .some(nil))
            #expect(none.status == 401)
            #expect(try DriveHarness.error(none).reason == "required")

            let unknown = try await harness.send(.get, "/drive/v3/files", token: "ya29.unknown")
            #expect(unknown.status == 401)
            #expect(unknown.headers["WWW-Authenticate"]?.hasPrefix("Bearer ") == true)
            let error = try DriveHarness.error(unknown)
            #expect(error.reason == "authError")
            #expect(error.location == "Authorization")
            #expect(error.status == "UNAUTHENTICATED")
            let body = try DriveHarness.object(unknown)
            let first = try #require(((body["error"] as? [String: Any])?["errors"] as? [[String: Any]])?.first)
            #expect(first["domain"] as? String == "global")
            #expect(first["locationType"] as? String == "header")

            #expect(try await harness.send(.get, "/drive/v3/files").status == 200)
            harness.authorization.expireAllAccessTokens()
            let expired = try await harness.send(.get, "/drive/v3/files")
            #expect(expired.status == 401)
            #expect(try DriveHarness.error(expired).reason == "authError")
            let upload = try await harness.send(
                .post, "/upload/drive/v3/files", query: [("uploadType", "media")], body: Data("x".utf8))
            #expect(upload.status == 401)

            let fresh = harness.authorization.issueTokens().accessToken
            #expect(try await harness.send(.get, "/drive/v3/files", token: fresh).status == 200)
            let narrow = harness.authorization.issueTokens(scopes: ["openid"]).accessToken
            let scoped = try await harness.send(.get, "/drive/v3/files", token: narrow)
            #expect(scoped.status == 403)
            #expect(try DriveHarness.error(scoped).reason == "insufficientPermissions")
        }
    }

    @Test("int64 fields are JSON strings and times carry milliseconds")
    func int64AsStrings() async throws {
        try await DriveMockProvider().withSession { harness in
            let file = try await harness.createFile("n.txt", Data("12345".utf8))
            let raw = try await harness.send(
                .get, "/drive/v3/files/\(try #require(file["id"] as? String))",
                query: [("fields", "size,quotaBytesUsed,version,modifiedTime")])
            let text = DriveHarness.text(raw)
            #expect(text.contains("\"size\":\"5\""))
            #expect(text.contains("\"quotaBytesUsed\":\"5\""))
            #expect(text.contains(#/"version":"\d+"/#))
            #expect(text.contains(#/"modifiedTime":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"/#))
            #expect(raw.headers["Content-Type"]?.hasPrefix("application/json") == true)
        }
    }

    @Test("about.get needs fields and reports the user and quota usage as strings")
    func about() async throws {
        try await DriveMockProvider().withSession { harness in
            let missing = try await harness.send(.get, "/drive/v3/about")
            #expect(missing.status == 400)
            #expect(try DriveHarness.error(missing).reason == "required")
            try await harness.createFile("q.bin", DriveHarness.bytes(100))
            let about = try DriveHarness.object(
                try await harness.send(.get, "/drive/v3/about", query: [("fields", "user(emailAddress),storageQuota")]))
            #expect((about["user"] as? [String: Any])?["emailAddress"] as? String == "stratus-mock@example.com")
            let quota = try #require(about["storageQuota"] as? [String: Any])
            #expect(quota["usage"] as? String == "100")
            #expect(quota["limit"] as? String == String(15 * 1024 * 1024 * 1024 as Int64))
        }
    }

    @Test("the request log records Drive calls with tokens redacted")
    func requestLog() async throws {
        try await DriveMockProvider().withSession { harness in
            _ = try await harness.send(
                .post, "/drive/v3/files", query: [("fields", "id")], json: ["name": "logged.txt"])
            _ = try await harness.send(
                .get, "/drive/v3/files", query: [("q", "name = 'logged.txt'"), ("access_token", "secret-in-query")],
                token: .some(nil))
            let entries = harness.server.requestLog.entries
            #expect(entries.count == 2)
            let create = try #require(entries.first)
            #expect(create.method == "POST")
            #expect(create.path == "/drive/v3/files")
            #expect(create.status == 200)
            #expect(create.header("Authorization") == "Bearer \(SecretRedaction.placeholder)")
            #expect(create.arguments?.contains("logged.txt") == true)
            let list = try #require(entries.last)
            #expect(list.queryValue("q") == "name = 'logged.txt'")
            #expect(list.queryValue("access_token") == SecretRedaction.placeholder)
            #expect(list.status == 401)
            #expect(!harness.server.requestLog.description.contains(harness.token))
            #expect(!harness.server.requestLog.description.contains("secret-in-query"))
        }
    }

    @Test("DriveErrorBody builds Google's shape for fault injection")
    func errorBody() throws {
        let body = DriveErrorBody.userRateLimitExceeded().json
        let object = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        let error = try #require(object["error"] as? [String: Any])
        #expect(error["code"] as? Int == 403)
        #expect(error["status"] as? String == "PERMISSION_DENIED")
        let first = try #require((error["errors"] as? [[String: Any]])?.first)
        #expect(first["reason"] as? String == "userRateLimitExceeded")
        #expect(first["domain"] as? String == "usageLimits")
    }
}
