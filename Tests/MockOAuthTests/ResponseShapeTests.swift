import Foundation
import MockOAuth
import MockSupport
import StratusHTTP
import Testing

@Suite("Wire shapes of token answers")
struct ResponseShapeTests {
    @Test("Dropbox code exchange: exactly Dropbox's keys and types")
    func dropboxExchange() async throws {
        try await OAuthHarness.with(.init(flavor: .dropbox)) { harness in
            let pkce = try PKCEPair()
            let authorization = try await harness.authorize(pkce: pkce)
            let response = try await harness.exchange(code: authorization.code, verifier: pkce.verifier)
            #expect(response.status == 200)
            #expect(response.headers["Content-Type"] == "application/json")
            let json = try JSONObject.parse(response)
            #expect(
                Set(json.keys) == [
                    "access_token", "token_type", "expires_in", "scope", "account_id", "uid", "refresh_token",
                ])
            #expect((json["access_token"] as? String)?.hasPrefix("sl.") == true)
            #expect(json["token_type"] as? String == "bearer")
            #expect(json["expires_in"] as? Int == 14_400)
            #expect(JSONObject.hasIntegerMember("expires_in", in: response))
            #expect(json["scope"] as? String == harness.configuration.scopes.joined(separator: " "))
            #expect(json["account_id"] as? String == harness.configuration.accountID)
            #expect(json["uid"] as? String == harness.configuration.userID)
            #expect((json["refresh_token"] as? String)?.count == 64)
        }
    }

    @Test("Dropbox refresh: access_token, token_type and expires_in only")
    func dropboxRefresh() async throws {
        try await OAuthHarness.with(.init(flavor: .dropbox, accessTokenLifetime: .seconds(60))) { harness in
            let tokens = harness.server.issueTokens()
            let response = try await harness.refresh(tokens.refreshToken, secret: harness.configuration.clientSecret)
            #expect(response.headers["Content-Type"] == "application/json")
            let json = try JSONObject.parse(response)
            #expect(Set(json.keys) == ["access_token", "token_type", "expires_in"])
            #expect(json["token_type"] as? String == "bearer")
            #expect(json["expires_in"] as? Int == 60)
            #expect(JSONObject.hasIntegerMember("expires_in", in: response))
        }
    }

    @Test("Google code exchange and refresh: Google's keys and types")
    func google() async throws {
        try await OAuthHarness.with(.init(flavor: .google)) { harness in
            let pkce = try PKCEPair()
            let authorization = try await harness.authorize(pkce: pkce)
            let exchange = try await harness.exchange(code: authorization.code, verifier: pkce.verifier)
            #expect(exchange.headers["Content-Type"] == "application/json")
            let json = try JSONObject.parse(exchange)
            #expect(Set(json.keys) == ["access_token", "expires_in", "scope", "token_type", "refresh_token"])
            #expect((json["access_token"] as? String)?.hasPrefix("ya29.") == true)
            #expect(json["token_type"] as? String == "Bearer")
            #expect(json["expires_in"] as? Int == 3_599)
            #expect(JSONObject.hasIntegerMember("expires_in", in: exchange))
            #expect(json["scope"] as? String == OAuthHarness.googleScope)
            let refreshToken = try #require(json["refresh_token"] as? String)
            #expect(refreshToken.hasPrefix("1//"))

            let refresh = try await harness.refresh(refreshToken, secret: harness.configuration.clientSecret)
            #expect(refresh.headers["Content-Type"] == "application/json")
            let refreshed = try JSONObject.parse(refresh)
            #expect(Set(refreshed.keys) == ["access_token", "expires_in", "scope", "token_type"])
            #expect(JSONObject.hasIntegerMember("expires_in", in: refresh))
        }
    }

    @Test("Errors are JSON with error and error_description, Content-Type exactly application/json")
    func errorShape() async throws {
        for flavor in [MockAuthorizationServer.Flavor.dropbox, .google] {
            try await OAuthHarness.with(.init(flavor: flavor)) { harness in
                let response = try await harness.refresh("not-a-token", secret: harness.configuration.clientSecret)
                #expect(response.status == 400)
                #expect(try JSONObject.oauthError(response) == "invalid_grant")
                let raw = String(decoding: response.body, as: UTF8.self)
                #expect(raw.hasPrefix("{") && raw.hasSuffix("}"))
            }
        }
    }
}
