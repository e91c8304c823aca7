import Foundation
import MockOAuth
import MockSupport
import StratusHTTP
import Testing

@Suite("Refresh")
struct RefreshTests {
    static let flavors: [MockAuthorizationServer.Flavor] = [.dropbox, .google]

    @Test("A refresh issues a new valid access token and is counted", arguments: flavors)
    func refresh(flavor: MockAuthorizationServer.Flavor) async throws {
        try await OAuthHarness.with(.init(flavor: flavor)) { harness in
            let tokens = harness.server.issueTokens()
            let response = try await harness.refresh(tokens.refreshToken, secret: harness.configuration.clientSecret)
            #expect(response.status == 200)
            let json = try JSONObject.parse(response)
            let accessToken = try #require(json["access_token"] as? String)
            #expect(accessToken != tokens.accessToken)
            #expect(json["refresh_token"] == nil)
            #expect(harness.server.validate(accessToken: accessToken) == .valid(scopes: harness.configuration.scopes))
            #expect(harness.server.refreshCount == 1)
            let again = try await harness.refresh(tokens.refreshToken, secret: harness.configuration.clientSecret)
            #expect(again.status == 200)
            #expect(harness.server.refreshCount == 2)
        }
    }

    @Test("A refresh token from a PKCE sign-in refreshes without the secret; an issued one needs it")
    func pkceRefreshWithoutSecret() async throws {
        try await OAuthHarness.with(.init(flavor: .dropbox)) { harness in
            let (json, _, _) = try await harness.signIn()
            let refreshToken = try #require(json["refresh_token"] as? String)
            #expect(try await harness.refresh(refreshToken).status == 200)
            let issued = harness.server.issueTokens()
            let withoutSecret = try await harness.refresh(issued.refreshToken)
            #expect(try JSONObject.oauthError(withoutSecret) == "invalid_client")
            #expect(harness.server.refreshCount == 1)
        }
    }

    @Test("A revoked refresh token is invalid_grant, and its access tokens are invalid", arguments: flavors)
    func revoked(flavor: MockAuthorizationServer.Flavor) async throws {
        try await OAuthHarness.with(.init(flavor: flavor)) { harness in
            let tokens = harness.server.issueTokens()
            #expect(harness.server.revoke(refreshToken: tokens.refreshToken))
            #expect(!harness.server.revoke(refreshToken: tokens.refreshToken))
            let response = try await harness.refresh(tokens.refreshToken, secret: harness.configuration.clientSecret)
            #expect(response.status == 400)
            #expect(try JSONObject.oauthError(response) == "invalid_grant")
            if flavor == .google {
                let description = try JSONObject.parse(response)["error_description"] as? String
                #expect(description == "Token has been expired or revoked.")
            }
            #expect(harness.server.validate(accessToken: tokens.accessToken) == .invalid)
            #expect(harness.server.refreshCount == 0)
        }
    }

    @Test("With rotation a refresh returns a new refresh token and retires the old one", arguments: flavors)
    func rotation(flavor: MockAuthorizationServer.Flavor) async throws {
        try await OAuthHarness.with(.init(flavor: flavor, rotatesRefreshTokens: true)) { harness in
            let secret = harness.configuration.clientSecret
            let tokens = harness.server.issueTokens()
            let first = try JSONObject.parse(try await harness.refresh(tokens.refreshToken, secret: secret))
            let rotated = try #require(first["refresh_token"] as? String)
            #expect(rotated != tokens.refreshToken)
            let old = try await harness.refresh(tokens.refreshToken, secret: secret)
            #expect(try JSONObject.oauthError(old) == "invalid_grant")
            let next = try await harness.refresh(rotated, secret: secret)
            #expect(next.status == 200)
            #expect(harness.server.refreshCount == 2)
        }
    }

    @Test("A narrower scope is granted; a wider one is invalid_scope")
    func scopes() async throws {
        try await OAuthHarness.with(.init(flavor: .dropbox)) { harness in
            let secret = harness.configuration.clientSecret
            let tokens = harness.server.issueTokens(scopes: ["files.content.read", "files.metadata.read"])
            let narrower = try await harness.refresh(tokens.refreshToken, secret: secret, scope: "files.content.read")
            let accessToken = try #require(try JSONObject.parse(narrower)["access_token"] as? String)
            #expect(harness.server.validate(accessToken: accessToken) == .valid(scopes: ["files.content.read"]))
            let wider = try await harness.refresh(tokens.refreshToken, secret: secret, scope: "files.content.write")
            #expect(try JSONObject.oauthError(wider) == "invalid_scope")
        }
    }

    @Test("200 concurrent refreshes all succeed and are all counted")
    func concurrentRefreshes() async throws {
        try await OAuthHarness.with(.init(flavor: .google)) { harness in
            let tokens = harness.server.issueTokens()
            let secret = harness.configuration.clientSecret
            let accessTokens = try await withThrowingTaskGroup(of: String?.self) { group in
                for _ in 0..<200 {
                    group.addTask {
                        let response = try await harness.refresh(tokens.refreshToken, secret: secret)
                        return try JSONObject.parse(response)["access_token"] as? String
                    }
                }
                var collected: [String] = []
                for try await token in group {
                    if let token { collected.append(token) }
                }
                return collected
            }
            #expect(accessTokens.count == 200)
            #expect(Set(accessTokens).count == 200)
            #expect(harness.server.refreshCount == 200)
            #expect(accessTokens.allSatisfy { harness.server.validate(accessToken: $0).isValid })
        }
    }

    @Test("With rotation, exactly one of 50 concurrent refreshes of one token wins")
    func concurrentRotation() async throws {
        try await OAuthHarness.with(.init(flavor: .dropbox, rotatesRefreshTokens: true)) { harness in
            let tokens = harness.server.issueTokens()
            let secret = harness.configuration.clientSecret
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<50 {
                    group.addTask { try await harness.refresh(tokens.refreshToken, secret: secret).status }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 200 }.count == 1)
            #expect(statuses.filter { $0 == 400 }.count == 49)
            #expect(harness.server.refreshCount == 1)
        }
    }
}

@Suite("Access token status")
struct AccessTokenStatusTests {
    @Test("validate() reports valid, expired and invalid tokens")
    func validate() async throws {
        let server = MockAuthorizationServer(configuration: .init(flavor: .dropbox))
        let tokens = server.issueTokens(scopes: ["files.content.read"])
        #expect(tokens.accessToken.hasPrefix("sl."))
        #expect(tokens.lifetime == .seconds(14_400))
        #expect(server.validate(accessToken: tokens.accessToken) == .valid(scopes: ["files.content.read"]))
        #expect(server.validate(accessToken: "sl.unknown") == .invalid)
        server.expireAllAccessTokens()
        #expect(server.validate(accessToken: tokens.accessToken) == .expired)
        let later = server.issueTokens()
        #expect(server.validate(accessToken: later.accessToken).isValid)
    }

    @Test("Access tokens expire after their lifetime, and a refresh gives a fresh one")
    func lifetime() async throws {
        try await OAuthHarness.with(.init(flavor: .google, accessTokenLifetime: .milliseconds(300))) { harness in
            let tokens = harness.server.issueTokens()
            #expect(harness.server.validate(accessToken: tokens.accessToken).isValid)
            try await Task.sleep(for: .milliseconds(500))
            #expect(harness.server.validate(accessToken: tokens.accessToken) == .expired)
            harness.server.expireAllAccessTokens()
            let response = try await harness.refresh(tokens.refreshToken, secret: harness.configuration.clientSecret)
            let answer = try JSONObject.parse(response)
            let accessToken = try #require(answer["access_token"] as? String)
            // The new token is known to the server and gets the full lifetime; whether it is still
            // inside its 300 ms by the time this line runs depends on the machine's load.
            #expect(accessToken != tokens.accessToken)
            #expect(harness.server.validate(accessToken: accessToken) != .invalid)
            #expect((answer["expires_in"] as? Int) == 0)  // whole seconds of 300 ms
        }
    }
}
