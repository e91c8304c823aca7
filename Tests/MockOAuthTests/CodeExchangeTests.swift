import Foundation
import MockOAuth
import MockSupport
import Testing

@Suite("Code exchange")
struct CodeExchangeTests {
    static let flavors: [MockAuthorizationServer.Flavor] = [.dropbox, .google]

    @Test("A correct PKCE verifier without a secret succeeds for a public client", arguments: flavors)
    func pkcePublicClient(flavor: MockAuthorizationServer.Flavor) async throws {
        try await OAuthHarness.with(.init(flavor: flavor, clientSecret: nil)) { harness in
            let (json, _, _) = try await harness.signIn()
            let accessToken = try #require(json["access_token"] as? String)
            #expect(json["refresh_token"] is String)
            #expect(harness.server.validate(accessToken: accessToken).isValid)
            #expect(harness.server.codeExchangeCount == 1)
        }
    }

    @Test("A confidential client may use PKCE without its secret, or its secret without PKCE", arguments: flavors)
    func confidentialClient(flavor: MockAuthorizationServer.Flavor) async throws {
        try await OAuthHarness.with(.init(flavor: flavor)) { harness in
            _ = try await harness.signIn()
            let authorization = try await harness.authorize(pkce: nil)
            let response = try await harness.exchange(
                code: authorization.code, verifier: nil, secret: harness.configuration.clientSecret
            )
            #expect(response.status == 200)
            #expect(harness.server.codeExchangeCount == 2)
        }
    }

    @Test("A wrong verifier is invalid_grant, and the code still works with the right one", arguments: flavors)
    func wrongVerifier(flavor: MockAuthorizationServer.Flavor) async throws {
        try await OAuthHarness.with(.init(flavor: flavor)) { harness in
            let pkce = try PKCEPair()
            let authorization = try await harness.authorize(pkce: pkce)
            let wrong = try await harness.exchange(code: authorization.code, verifier: try PKCEPair().verifier)
            #expect(wrong.status == 400)
            #expect(try JSONObject.oauthError(wrong) == "invalid_grant")
            let missing = try await harness.exchange(
                code: authorization.code, verifier: nil, secret: harness.configuration.clientSecret)
            #expect(try JSONObject.oauthError(missing) == "invalid_grant")
            let right = try await harness.exchange(code: authorization.code, verifier: pkce.verifier)
            #expect(right.status == 200)
        }
    }

    @Test("A code works once; reusing it is invalid_grant and revokes what it gave", arguments: flavors)
    func reusedCode(flavor: MockAuthorizationServer.Flavor) async throws {
        try await OAuthHarness.with(.init(flavor: flavor)) { harness in
            let (json, pkce, code) = try await harness.signIn()
            let accessToken = try #require(json["access_token"] as? String)
            let again = try await harness.exchange(code: code, verifier: pkce.verifier)
            #expect(again.status == 400)
            #expect(try JSONObject.oauthError(again) == "invalid_grant")
            #expect(harness.server.validate(accessToken: accessToken) == .invalid)
            #expect(harness.server.codeExchangeCount == 1)
        }
    }

    @Test("A redirect URI that differs from the authorize step's is invalid_grant", arguments: flavors)
    func redirectMismatch(flavor: MockAuthorizationServer.Flavor) async throws {
        try await OAuthHarness.with(.init(flavor: flavor)) { harness in
            let pkce = try PKCEPair()
            let authorization = try await harness.authorize(pkce: pkce)
            for uri in ["http://127.0.0.1:53682/other", "http://127.0.0.1:53683/callback", nil] {
                let response = try await harness.exchange(
                    code: authorization.code, verifier: pkce.verifier, redirectURI: uri)
                #expect(response.status == 400)
                #expect(try JSONObject.oauthError(response) == "invalid_grant")
            }
        }
    }

    @Test("Unknown and expired codes are invalid_grant")
    func unknownAndExpiredCodes() async throws {
        try await OAuthHarness.with(.init(flavor: .dropbox, authorizationCodeLifetime: .milliseconds(200))) { harness in
            let unknown = try await harness.exchange(code: "no-such-code", verifier: try PKCEPair().verifier)
            #expect(try JSONObject.oauthError(unknown) == "invalid_grant")
            let pkce = try PKCEPair()
            let authorization = try await harness.authorize(pkce: pkce)
            try await Task.sleep(for: .milliseconds(400))
            let late = try await harness.exchange(code: authorization.code, verifier: pkce.verifier)
            #expect(try JSONObject.oauthError(late) == "invalid_grant")
        }
    }

    @Test("Without offline access no refresh token is issued", arguments: flavors)
    func onlineAccess(flavor: MockAuthorizationServer.Flavor) async throws {
        try await OAuthHarness.with(.init(flavor: flavor)) { harness in
            let pkce = try PKCEPair()
            let authorization = try await harness.authorize(pkce: pkce, offline: false)
            let response = try await harness.exchange(code: authorization.code, verifier: pkce.verifier)
            let json = try JSONObject.parse(response)
            #expect(json["access_token"] is String)
            #expect(json["refresh_token"] == nil)
        }
    }
}

@Suite("Client authentication")
struct ClientAuthenticationTests {
    @Test(
        "HTTP Basic client credentials are accepted for both grants",
        arguments: [MockAuthorizationServer.Flavor.dropbox, .google])
    func basicCredentials(flavor: MockAuthorizationServer.Flavor) async throws {
        try await OAuthHarness.with(.init(flavor: flavor)) { harness in
            let credentials = (id: harness.configuration.clientID, secret: harness.configuration.clientSecret ?? "")
            let authorization = try await harness.authorize(pkce: nil)
            let exchange = try await harness.post(
                harness.paths.token,
                form: [
                    "grant_type": "authorization_code", "code": authorization.code,
                    "redirect_uri": OAuthHarness.redirectURI,
                ], basic: credentials)
            #expect(exchange.status == 200)
            let refreshToken = try #require(try JSONObject.parse(exchange)["refresh_token"] as? String)
            let refresh = try await harness.post(
                harness.paths.token,
                form: [
                    "grant_type": "refresh_token", "refresh_token": refreshToken,
                ], basic: credentials)
            #expect(refresh.status == 200)
            #expect(harness.server.refreshCount == 1)
        }
    }

    @Test(
        "A wrong secret is invalid_client: 400 from Dropbox, 401 from Google",
        arguments: [
            (MockAuthorizationServer.Flavor.dropbox, 400), (.google, 401),
        ])
    func wrongSecret(flavor: MockAuthorizationServer.Flavor, status: Int) async throws {
        try await OAuthHarness.with(.init(flavor: flavor)) { harness in
            let authorization = try await harness.authorize(pkce: nil)
            let inForm = try await harness.exchange(code: authorization.code, verifier: nil, secret: "not-the-secret")
            #expect(inForm.status == status)
            #expect(try JSONObject.oauthError(inForm) == "invalid_client")
            let inBasic = try await harness.post(
                harness.paths.token,
                form: [
                    "grant_type": "authorization_code", "code": authorization.code,
                    "redirect_uri": OAuthHarness.redirectURI,
                ], basic: (harness.configuration.clientID, "not-the-secret"))
            #expect(inBasic.status == status)
            #expect(try JSONObject.oauthError(inBasic) == "invalid_client")
            let tokens = harness.server.issueTokens()
            let refresh = try await harness.refresh(tokens.refreshToken, secret: "not-the-secret")
            #expect(try JSONObject.oauthError(refresh) == "invalid_client")
            #expect(harness.server.refreshCount == 0)
        }
    }

    @Test("A confidential client without secret or verifier is invalid_client")
    func missingSecret() async throws {
        try await OAuthHarness.with(.init(flavor: .dropbox)) { harness in
            let authorization = try await harness.authorize(pkce: nil)
            let response = try await harness.exchange(code: authorization.code, verifier: nil)
            #expect(try JSONObject.oauthError(response) == "invalid_client")
            let unknownClient = try await harness.post(
                harness.paths.token,
                form: [
                    "grant_type": "authorization_code", "code": authorization.code, "client_id": "someone-else",
                ])
            #expect(try JSONObject.oauthError(unknownClient) == "invalid_client")
        }
    }

    @Test("Malformed requests get invalid_request or unsupported_grant_type")
    func malformedRequests() async throws {
        try await OAuthHarness.with(.init(flavor: .google)) { harness in
            let id = harness.configuration.clientID
            var repeated: FormFields = ["grant_type": "refresh_token", "refresh_token": "a", "client_id": id]
            repeated.append("refresh_token", "b")
            let cases: [(FormFields, String)] = [
                (["client_id": id], "invalid_request"),
                (repeated, "invalid_request"),
                (["grant_type": "password", "client_id": id], "unsupported_grant_type"),
                (
                    ["grant_type": "refresh_token", "client_id": id, "client_secret": "stratus-test-secret"],
                    "invalid_request"
                ),
                (["grant_type": "refresh_token", "refresh_token": "a"], "invalid_request"),
            ]
            for (form, error) in cases {
                let response = try await harness.post(harness.paths.token, form: form)
                #expect(response.status == 400)
                #expect(try JSONObject.oauthError(response) == error, "\(form.encoded)")
            }
            let json = try await harness.post(
                harness.paths.token,
                form: ["grant_type": "refresh_token"],
                headers: ["Content-Type": "application/json"]
            )
            #expect(try JSONObject.oauthError(json) == "invalid_request")
        }
    }
}
