import Foundation
import MockOAuth
import MockSupport
import StratusHTTP
import Testing

@Suite("Revocation")
struct RevokeTests {
    func dropboxRevoke(_ harness: OAuthHarness, token: String, body: Data = Data()) async throws -> StratusHTTPResponse
    {
        var headers: StratusHTTPHeaders = ["Authorization": "Bearer \(token)"]
        if !body.isEmpty { headers.set("Content-Type", "application/json") }
        let request = StratusHTTP.StratusHTTPRequest(
            method: .post, url: try harness.url(harness.paths.revoke), headers: headers, body: .bytes(body)
        )
        return try await harness.client.execute(request)
    }

    @Test("Dropbox: revoke answers null and disables the token and its refresh token")
    func dropbox() async throws {
        try await OAuthHarness.with(.init(flavor: .dropbox)) { harness in
            let tokens = harness.server.issueTokens()
            let response = try await dropboxRevoke(harness, token: tokens.accessToken)
            #expect(response.status == 200)
            #expect(response.headers["Content-Type"] == "application/json")
            #expect(String(decoding: response.body, as: UTF8.self) == "null")
            #expect(harness.server.validate(accessToken: tokens.accessToken) == .invalid)
            let refresh = try await harness.refresh(tokens.refreshToken, secret: harness.configuration.clientSecret)
            #expect(try JSONObject.oauthError(refresh) == "invalid_grant")

            let other = harness.server.issueTokens()
            let withNullBody = try await dropboxRevoke(harness, token: other.accessToken, body: Data("null".utf8))
            #expect(withNullBody.status == 200)
        }
    }

    @Test("Dropbox: a bad or expired token gets the 401 auth error JSON")
    func dropboxBadToken() async throws {
        try await OAuthHarness.with(.init(flavor: .dropbox)) { harness in
            let invalid = try await dropboxRevoke(harness, token: "sl.nothing")
            #expect(invalid.status == 401)
            #expect(invalid.headers["Content-Type"] == "application/json")
            let json = try JSONObject.parse(invalid)
            #expect((json["error_summary"] as? String)?.hasPrefix("invalid_access_token/") == true)
            #expect((json["error"] as? [String: Any])?[".tag"] as? String == "invalid_access_token")

            let tokens = harness.server.issueTokens()
            harness.server.expireAllAccessTokens()
            let expired = try JSONObject.parse(try await dropboxRevoke(harness, token: tokens.accessToken))
            #expect((expired["error"] as? [String: Any])?[".tag"] as? String == "expired_access_token")

            let fresh = harness.server.issueTokens()
            let badBody = try await dropboxRevoke(harness, token: fresh.accessToken, body: Data("{\"x\": 1}".utf8))
            #expect(badBody.status == 400)
            #expect(harness.server.validate(accessToken: fresh.accessToken).isValid)
        }
    }

    @Test("Google: revoke by query or form answers {} and ends the grant; unknown tokens get invalid_token")
    func google() async throws {
        try await OAuthHarness.with(.init(flavor: .google)) { harness in
            let byQuery = harness.server.issueTokens()
            let first = try await harness.post(harness.paths.revoke, form: [:], query: ["token": byQuery.refreshToken])
            #expect(first.status == 200)
            #expect(first.headers["Content-Type"] == "application/json")
            #expect(String(decoding: first.body, as: UTF8.self) == "{}")
            #expect(harness.server.validate(accessToken: byQuery.accessToken) == .invalid)

            let byForm = harness.server.issueTokens()
            let second = try await harness.post(harness.paths.revoke, form: ["token": byForm.accessToken])
            #expect(second.status == 200)
            let refresh = try await harness.refresh(byForm.refreshToken, secret: harness.configuration.clientSecret)
            #expect(try JSONObject.oauthError(refresh) == "invalid_grant")

            let again = try await harness.post(harness.paths.revoke, form: ["token": byForm.accessToken])
            #expect(again.status == 400)
            #expect(again.headers["Content-Type"] == "application/json")
            #expect(try JSONObject.parse(again)["error"] as? String == "invalid_token")
        }
    }
}
