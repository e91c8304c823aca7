import Foundation
import MockOAuth
import MockSupport
import StratusHTTP
import Testing

@Suite("No secret reaches the request log")
struct OAuthRedactionTests {
    @Test(
        "A full sign-in, refresh and revoke leaves no token, secret, code or verifier in the log",
        arguments: [MockAuthorizationServer.Flavor.dropbox, .google])
    func fullFlow(flavor: MockAuthorizationServer.Flavor) async throws {
        try await OAuthHarness.with(.init(flavor: flavor, rotatesRefreshTokens: true)) { harness in
            let secret = try #require(harness.configuration.clientSecret)
            let (json, pkce, code) = try await harness.signIn(secret: secret)
            let accessToken = try #require(json["access_token"] as? String)
            let refreshToken = try #require(json["refresh_token"] as? String)
            let refreshed = try JSONObject.parse(try await harness.refresh(refreshToken, secret: secret))
            let newAccessToken = try #require(refreshed["access_token"] as? String)
            let newRefreshToken = try #require(refreshed["refresh_token"] as? String)
            _ = try await harness.post(
                harness.paths.token,
                form: [
                    "grant_type": "refresh_token", "refresh_token": newRefreshToken,
                ], basic: (harness.configuration.clientID, secret))

            switch flavor {
            case .dropbox:
                let request = StratusHTTP.StratusHTTPRequest(
                    method: .post, url: try harness.url(harness.paths.revoke),
                    headers: ["Authorization": "Bearer \(newAccessToken)"]
                )
                #expect(try await harness.client.execute(request).status == 200)
            case .google:
                let response = try await harness.post(harness.paths.revoke, form: [:], query: ["token": newAccessToken])
                #expect(response.status == 200)
            case .microsoft:
                Issue.record("Microsoft's identity platform has no revocation endpoint to test here.")
            }

            let log = harness.server.requestLog
            #expect(log.entries(path: harness.paths.authorize).count == 1)
            #expect(log.entries(path: harness.paths.token).count == 3)
            #expect(log.entries(path: harness.paths.revoke).count == 1)
            #expect(log.entries(path: harness.paths.token).allSatisfy { $0.status == 200 })
            let exchange = try #require(log.entries(path: harness.paths.token).first)
            #expect(exchange.arguments?.contains("code=<redacted>") == true)
            #expect(exchange.arguments?.contains("code_verifier=<redacted>") == true)
            #expect(exchange.arguments?.contains("client_secret=<redacted>") == true)
            #expect(exchange.arguments?.contains("grant_type=authorization_code") == true)
            #expect(log.entries(path: harness.paths.token).last?.header("Authorization") == "Basic <redacted>")

            let text = log.description
            for secretValue in [
                secret, code, pkce.verifier, accessToken, refreshToken, newAccessToken, newRefreshToken,
            ] {
                #expect(!text.contains(secretValue), "the log holds a secret: \(secretValue.prefix(6))…")
            }
            #expect(text.contains(harness.configuration.clientID))
        }
    }
}
