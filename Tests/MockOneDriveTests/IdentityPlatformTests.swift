import Foundation
import MockOAuth
import MockOneDrive
import MockProviders
import StratusDigest
import StratusHTTP
import Testing

@Suite("Graph mock: Microsoft identity platform v2 sign-in, and the quota")
struct IdentityPlatformTests {
    @Test("authorize with PKCE and offline_access, then the code exchange gives Graph tokens and a refresh token")
    func authorizationCode() async throws {
        try await OneDriveMockProvider().withSession { harness in
            let verifier = "a-verifier-of-forty-three-characters-or-more-0123456789"
            let digest = SHA256Digest()
            digest.update(Array(verifier.utf8))
            let challenge = Base64URL.encode(digest.finalize())
            let configuration = harness.server.authorization.configuration
            let redirect = "http://127.0.0.1:53682/callback"
            var query = URLComponents()
            query.queryItems = [
                URLQueryItem(name: "client_id", value: configuration.clientID),
                URLQueryItem(name: "response_type", value: "code"),
                URLQueryItem(name: "redirect_uri", value: redirect),
                URLQueryItem(
                    name: "scope", value: "https://graph.microsoft.com/Files.ReadWrite.AppFolder offline_access"),
                URLQueryItem(name: "state", value: "s-1"),
                URLQueryItem(name: "code_challenge", value: challenge),
                URLQueryItem(name: "code_challenge_method", value: "S256"),
            ]
            let authorize = try await harness.send(
                .get, "/common/oauth2/v2.0/authorize?" + (query.percentEncodedQuery ?? ""), token: .some(nil))
            #expect(authorize.status == 302, "\(OneDriveHarness.text(authorize))")
            let location = try #require(authorize.headers["Location"].flatMap { URLComponents(string: $0) })
            #expect(location.queryItems?.first { $0.name == "state" }?.value == "s-1")
            let code = try #require(location.queryItems?.first { $0.name == "code" }?.value)

            var form = URLComponents()
            form.queryItems = [
                URLQueryItem(name: "grant_type", value: "authorization_code"),
                URLQueryItem(name: "code", value: code),
                URLQueryItem(name: "redirect_uri", value: redirect),
                URLQueryItem(name: "client_id", value: configuration.clientID),
                URLQueryItem(name: "client_secret", value: configuration.clientSecret),
                URLQueryItem(name: "code_verifier", value: verifier),
            ]
            let exchange = try await harness.send(
                .post, "/common/oauth2/v2.0/token", body: Data((form.percentEncodedQuery ?? "").utf8),
                headers: [("Content-Type", "application/x-www-form-urlencoded")], token: .some(nil))
            #expect(exchange.status == 200, "\(OneDriveHarness.text(exchange))")
            let tokens = try OneDriveHarness.object(exchange)
            #expect(tokens["token_type"] as? String == "Bearer")
            #expect((tokens["scope"] as? String)?.contains("Files.ReadWrite.AppFolder") == true)
            #expect(tokens["refresh_token"] is String)
            let access = try #require(tokens["access_token"] as? String)
            #expect(try await harness.send(.get, "/v1.0/me/drive/special/approot", token: access).status == 200)
        }
    }

    @Test("a write past the quota answers 507 quotaLimitReached; the drive reports what is used")
    func quota() async throws {
        try await OneDriveMockProvider(options: .init(quotaBytes: 1000)).withSession { harness in
            try await harness.put("/a.bin", OneDriveHarness.bytes(600))
            let full = try await harness.send(
                .put, "/v1.0/me/drive/root:/b.bin:/content", body: OneDriveHarness.bytes(600))
            #expect(full.status == 507)
            #expect(try OneDriveHarness.errorCodes(full).first == "quotaLimitReached")
            let drive = try OneDriveHarness.object(try await harness.send(.get, "/v1.0/me/drive"))
            let quota = try #require(drive["quota"] as? [String: Any])
            #expect(quota["used"] as? Int == 600)
            #expect(quota["remaining"] as? Int == 400)
        }
    }
}
