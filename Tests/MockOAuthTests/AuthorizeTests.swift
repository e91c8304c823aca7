import Foundation
import MockOAuth
import MockSupport
import Testing

@Suite("Authorize step")
struct AuthorizeTests {
    @Test("Dropbox redirects with a code and the state echoed exactly")
    func dropboxRedirect() async throws {
        try await OAuthHarness.with(.init(flavor: .dropbox)) { harness in
            let state = "a b&c=d/é+%20?#x"
            let authorization = try await harness.authorize(pkce: try PKCEPair(), state: state)
            #expect(authorization.location.scheme == "http")
            #expect(authorization.location.host == "127.0.0.1")
            #expect(authorization.location.port == 53682)
            #expect(authorization.location.path == "/callback")
            #expect(authorization.queryValue("state") == state)
            #expect(authorization.location.queryItems?.map(\.name) == ["code", "state"])
            #expect(authorization.code.count >= 40)
        }
    }

    @Test("Google redirects with state, code and scope")
    func googleRedirect() async throws {
        try await OAuthHarness.with(.init(flavor: .google)) { harness in
            let authorization = try await harness.authorize(pkce: try PKCEPair(), state: "xyz-123")
            #expect(authorization.location.queryItems?.map(\.name) == ["state", "code", "scope"])
            #expect(authorization.queryValue("state") == "xyz-123")
            #expect(authorization.queryValue("scope") == OAuthHarness.googleScope)
            #expect(authorization.code.hasPrefix("4/0"))
        }
    }

    @Test("A redirect URI with a query keeps it and gains the code")
    func redirectWithQuery() async throws {
        try await OAuthHarness.with(.init(flavor: .dropbox)) { harness in
            var query = harness.authorizeQuery(
                pkce: try PKCEPair(), state: "s", redirectURI: "https://app.example/cb?x=1")
            query.append("scope", "files.content.read")
            let response = try await harness.get(harness.paths.authorize, query: query)
            #expect(response.status == 302)
            let location = try #require(response.headers["Location"])
            #expect(location.hasPrefix("https://app.example/cb?x=1&code="))
            #expect(location.hasSuffix("&state=s"))
        }
    }

    @Test(
        "Bad requests get a 400 page, never a redirect",
        arguments: [
            ("client_id", "someone-else"),
            ("response_type", "token"),
            ("code_challenge_method", "plain"),
            ("code_challenge", "too-short"),
            ("redirect_uri", "not a uri"),
            ("redirect_uri", "https://app.example/cb#fragment"),
            ("token_access_type", "forever"),
            ("scope", "files.permanent_delete"),
        ])
    func badParameters(name: String, value: String) async throws {
        try await OAuthHarness.with(.init(flavor: .dropbox)) { harness in
            let good = harness.authorizeQuery(pkce: try PKCEPair(), state: "s")
            var query = FormFields(good.filter { $0.name != name })
            query.append(name, value)
            let response = try await harness.get(harness.paths.authorize, query: query)
            #expect(response.status == 400)
            #expect(response.headers["Location"] == nil)
            #expect(response.headers["Content-Type"]?.hasPrefix("text/html") == true)
        }
    }

    @Test("A repeated parameter is refused")
    func repeatedParameter() async throws {
        try await OAuthHarness.with(.init(flavor: .google)) { harness in
            var query = harness.authorizeQuery(pkce: try PKCEPair(), state: "s")
            query.append("state", "t")
            let response = try await harness.get(harness.paths.authorize, query: query)
            #expect(response.status == 400)
        }
    }

    @Test("A public client must use PKCE")
    func publicClientNeedsPKCE() async throws {
        try await OAuthHarness.with(.init(flavor: .dropbox, clientSecret: nil)) { harness in
            let response = try await harness.get(
                harness.paths.authorize, query: harness.authorizeQuery(pkce: nil, state: "s"))
            #expect(response.status == 400)
            #expect(String(decoding: response.body, as: UTF8.self).contains("PKCE"))
        }
    }

    @Test("Google requires redirect_uri and scope")
    func googleRequiredParameters() async throws {
        try await OAuthHarness.with(.init(flavor: .google)) { harness in
            let good = harness.authorizeQuery(pkce: try PKCEPair(), state: "s")
            for name in ["redirect_uri", "scope"] {
                let response = try await harness.get(
                    harness.paths.authorize, query: FormFields(good.filter { $0.name != name }))
                #expect(response.status == 400, "without \(name)")
                #expect(String(decoding: response.body, as: UTF8.self).contains("Missing required parameter: \(name)"))
            }
        }
    }

    @Test("Only registered redirect URIs are accepted; loopback ones on any port")
    func registeredRedirects() async throws {
        let configuration = MockAuthorizationServer.Configuration(
            flavor: .dropbox,
            allowedRedirectURIs: ["http://127.0.0.1/callback", "https://app.example/cb"]
        )
        try await OAuthHarness.with(configuration) { harness in
            let pkce = try PKCEPair()
            for (uri, status) in [
                ("http://127.0.0.1:53682/callback", 302), ("https://app.example/cb", 302),
                ("https://app.example:8443/cb", 400), ("https://evil.example/cb", 400),
                ("http://127.0.0.1:53682/other", 400),
            ] {
                let response = try await harness.get(
                    harness.paths.authorize,
                    query: harness.authorizeQuery(pkce: pkce, state: "s", redirectURI: uri)
                )
                #expect(response.status == status, "\(uri)")
            }
        }
    }

    @Test("When the simulated user declines, the redirect carries access_denied and the state")
    func declined() async throws {
        for flavor in [MockAuthorizationServer.Flavor.dropbox, .google] {
            try await OAuthHarness.with(.init(flavor: flavor, autoApprove: false)) { harness in
                let response = try await harness.get(
                    harness.paths.authorize,
                    query: harness.authorizeQuery(pkce: try PKCEPair(), state: "keep me")
                )
                #expect(response.status == 302)
                let location = try #require(response.headers["Location"].flatMap(URLComponents.init(string:)))
                let items = location.queryItems ?? []
                #expect(items.first { $0.name == "error" }?.value == "access_denied")
                #expect(items.first { $0.name == "state" }?.value == "keep me")
                #expect(!items.contains { $0.name == "code" })
            }
        }
    }

    @Test("Dropbox without a redirect URI shows the code, which exchanges without one")
    func dropboxWithoutRedirect() async throws {
        try await OAuthHarness.with(.init(flavor: .dropbox)) { harness in
            let pkce = try PKCEPair()
            let response = try await harness.get(
                harness.paths.authorize,
                query: harness.authorizeQuery(pkce: pkce, state: "s", redirectURI: nil)
            )
            #expect(response.status == 200)
            let page = String(decoding: response.body, as: UTF8.self)
            let marker = "finish the process: "
            let start = try #require(page.range(of: marker)?.upperBound)
            let code = String(page[start...].prefix { $0 != "<" })
            let exchange = try await harness.exchange(code: code, verifier: pkce.verifier, redirectURI: nil)
            #expect(exchange.status == 200)
        }
    }
}
