import Foundation
import StratusHTTP
import StratusOAuth
import Testing

@Suite struct AuthorizationURLTests {
    let redirect = URL(string: "http://127.0.0.1:53682/callback")!

    private func client(_ provider: OAuthProvider) throws -> OAuthClient {
        OAuthClient(provider: provider, http: try StratusHTTPClient())
    }

    private func query(_ url: URL) throws -> [String: String] {
        let items = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems)
        #expect(Set(items.map(\.name)).count == items.count, "no parameter twice")
        return Dictionary(uniqueKeysWithValues: items.map { ($0.name, $0.value ?? "") })
    }

    @Test func dropboxURLCarriesPKCEStateAndOfflineAccess() throws {
        let client = try client(.dropbox(clientID: "app-key", clientSecret: "app-SECRET"))
        let pending = try client.makeAuthorization(
            redirectURI: redirect, scopes: ["files.content.read", "files.content.write"])
        #expect(pending.url.absoluteString.hasPrefix("https://www.dropbox.com/oauth2/authorize?"))
        let query = try query(pending.url)
        #expect(query["response_type"] == "code")
        #expect(query["client_id"] == "app-key")
        #expect(query["redirect_uri"] == "http://127.0.0.1:53682/callback")
        #expect(query["state"] == pending.state)
        #expect(query["code_challenge"] == pending.pkce.challenge)
        #expect(query["code_challenge"] == PKCE(verifier: pending.codeVerifier).challenge)
        #expect(query["code_challenge_method"] == "S256")
        #expect(query["scope"] == "files.content.read files.content.write")
        #expect(query["token_access_type"] == "offline")
        #expect(query["code_verifier"] == nil)
        #expect(query["client_secret"] == nil)
        #expect(!pending.url.absoluteString.contains("SECRET"))
        #expect(!pending.url.absoluteString.contains(pending.codeVerifier))
    }

    @Test func googleURLAsksForOfflineAccessAndConsent() throws {
        let client = try client(.google(clientID: "id.apps.googleusercontent.com", clientSecret: "g-SECRET"))
        let pending = try client.makeAuthorization(
            redirectURI: redirect, scopes: ["https://www.googleapis.com/auth/drive"])
        #expect(pending.url.absoluteString.hasPrefix("https://accounts.google.com/o/oauth2/v2/auth?"))
        let query = try query(pending.url)
        #expect(query["access_type"] == "offline")
        #expect(query["prompt"] == "consent")
        #expect(query["scope"] == "https://www.googleapis.com/auth/drive")
        #expect(query["client_id"] == "id.apps.googleusercontent.com")
        #expect(query["code_challenge_method"] == "S256")
        #expect(query["token_access_type"] == nil)
        // Reserved characters are percent-encoded, so no server can misread them.
        #expect(pending.url.absoluteString.contains("scope=https%3A%2F%2Fwww.googleapis.com%2Fauth%2Fdrive"))
        #expect(pending.url.absoluteString.contains("redirect_uri=http%3A%2F%2F127.0.0.1%3A53682%2Fcallback"))
    }

    @Test func everyEndpointCanBeOverridden() throws {
        let base = URL(string: "http://127.0.0.1:9999")!
        let dropbox = OAuthProvider.dropbox(clientID: "k", clientSecret: nil, baseURL: base)
        #expect(dropbox.authorizeURL.absoluteString == "http://127.0.0.1:9999/oauth2/authorize")
        #expect(dropbox.tokenURL.absoluteString == "http://127.0.0.1:9999/oauth2/token")
        #expect(dropbox.revocation?.url.absoluteString == "http://127.0.0.1:9999/2/auth/token/revoke")
        let google = OAuthProvider.google(clientID: "k", clientSecret: nil, baseURL: base)
        #expect(google.authorizeURL.absoluteString == "http://127.0.0.1:9999/o/oauth2/v2/auth")
        #expect(google.tokenURL.absoluteString == "http://127.0.0.1:9999/token")
        #expect(google.revocation?.url.absoluteString == "http://127.0.0.1:9999/revoke")
        let custom = OAuthProvider.dropbox(
            clientID: "k", clientSecret: nil,
            authorizeURL: URL(string: "http://a.test/auth?tenant=x")!,
            tokenURL: URL(string: "http://b.test/t")!,
            revokeURL: URL(string: "http://c.test/r")!
        )
        let pending = try client(custom).makeAuthorization(redirectURI: redirect)
        #expect(pending.url.absoluteString.hasPrefix("http://a.test/auth?tenant=x&response_type=code&"))
        #expect(try query(pending.url)["scope"] == nil)
    }

    @Test func stateIsFreshAndUnguessableForEverySignIn() throws {
        let client = try client(.dropbox(clientID: "k", clientSecret: nil))
        let pendings = try (0..<100).map { _ in try client.makeAuthorization(redirectURI: redirect) }
        #expect(Set(pendings.map(\.state)).count == 100)
        #expect(Set(pendings.map(\.codeVerifier)).count == 100)
        for pending in pendings {
            #expect(pending.state.count >= 43, "at least 256 bits")
            #expect(pending.state != pending.codeVerifier)
        }
    }

    @Test func descriptionsHideTheVerifierAndClientSecret() throws {
        let provider = OAuthProvider.dropbox(clientID: "k", clientSecret: "client-SECRET")
        let pending = try client(provider).makeAuthorization(redirectURI: redirect)
        var dumpedPending = ""
        dump(pending, to: &dumpedPending)
        var dumpedProvider = ""
        dump(provider, to: &dumpedProvider)
        for text in [pending.description, String(reflecting: pending), dumpedPending] {
            #expect(!text.contains(pending.codeVerifier))
        }
        for text in [provider.description, String(reflecting: provider), dumpedProvider] {
            #expect(!text.contains("client-SECRET"))
        }
    }
}
