import Foundation
import Hummingbird
import MockOAuth
import MockSupport
import StratusDigest
import StratusHTTP
import Testing

/// A PKCE verifier and its S256 challenge, computed independently of the mock.
struct PKCEPair {
    let verifier: String
    let challenge: String

    init() throws {
        verifier = Base64URL.encode(try SecureRandom.bytes(count: 32))
        challenge = Base64URL.encode(Digest.sha256(Array(verifier.utf8)))
    }
}

/// The answer of an approved authorize step, read from the 302 Location.
struct Authorization {
    let code: String
    let location: URLComponents

    func queryValue(_ name: String) -> String? {
        location.queryItems?.first { $0.name == name }?.value
    }
}

/// A mock authorization server on a loopback port, and a client to talk to it.
struct OAuthHarness: Sendable {
    static let redirectURI = "http://127.0.0.1:53682/callback"
    static let googleScope = "https://www.googleapis.com/auth/drive"

    let server: MockAuthorizationServer
    let baseURL: URL
    let client: StratusHTTPClient

    var configuration: MockAuthorizationServer.Configuration { server.configuration }
    var paths: MockAuthorizationServer.Paths { server.paths }

    /// Runs `body` with a fresh server for `configuration`, then stops it.
    static func with<Result: Sendable>(
        _ configuration: MockAuthorizationServer.Configuration,
        _ body: @Sendable (OAuthHarness) async throws -> Result
    ) async throws -> Result {
        let server = MockAuthorizationServer(configuration: configuration)
        let router = Router()
        server.addRoutes(to: router)
        return try await StratusHTTPClient.withClient { client in
            try await MockServer.withRunning(router) { url in
                try await body(OAuthHarness(server: server, baseURL: url, client: client))
            }
        }
    }

    func url(_ path: String, query: FormFields = [:]) throws -> URL {
        let text = baseURL.absoluteString + path + (query.fields.isEmpty ? "" : "?" + query.encoded)
        return try #require(URL(string: text))
    }

    func get(_ path: String, query: FormFields) async throws -> StratusHTTPResponse {
        try await client.execute(StratusHTTPRequest(url: url(path, query: query)))
    }

    /// Posts a form, optionally with HTTP Basic client credentials.
    func post(
        _ path: String,
        form: FormFields,
        basic: (id: String, secret: String)? = nil,
        headers extra: StratusHTTPHeaders = [:],
        query: FormFields = [:]
    ) async throws -> StratusHTTPResponse {
        var headers = extra
        if !headers.contains("Content-Type") {
            headers.set("Content-Type", "application/x-www-form-urlencoded")
        }
        if let basic {
            headers.set("Authorization", "Basic " + Data("\(basic.id):\(basic.secret)".utf8).base64EncodedString())
        }
        let request = StratusHTTPRequest(
            method: .post,
            url: try url(path, query: query),
            headers: headers,
            body: .bytes(Data(form.encoded.utf8))
        )
        return try await client.execute(request)
    }

    /// The authorize query a well-behaved client of this flavor sends.
    func authorizeQuery(pkce: PKCEPair?, state: String, redirectURI: String? = redirectURI, offline: Bool = true)
        -> FormFields
    {
        var query: FormFields = ["client_id": configuration.clientID, "response_type": "code"]
        if let redirectURI { query.append("redirect_uri", redirectURI) }
        query.append("state", state)
        if let pkce {
            query.append("code_challenge", pkce.challenge)
            query.append("code_challenge_method", "S256")
        }
        switch configuration.flavor {
        case .dropbox:
            query.append("token_access_type", offline ? "offline" : "online")
        case .google:
            query.append("scope", Self.googleScope)
            query.append("access_type", offline ? "offline" : "online")
            query.append("prompt", "consent")
        case .microsoft:
            query.append("scope", offline ? "Files.ReadWrite offline_access" : "Files.ReadWrite")
        }
        return query
    }

    /// Runs the authorize step and reads the code from the redirect.
    func authorize(pkce: PKCEPair?, state: String = "state-1", offline: Bool = true) async throws -> Authorization {
        let response = try await get(paths.authorize, query: authorizeQuery(pkce: pkce, state: state, offline: offline))
        #expect(response.status == 302)
        let location = try #require(response.headers["Location"].flatMap(URLComponents.init(string:)))
        let code = try #require(location.queryItems?.first { $0.name == "code" }?.value)
        return Authorization(code: code, location: location)
    }

    /// Exchanges a code; the secret goes in the form when given.
    func exchange(
        code: String,
        verifier: String?,
        secret: String? = nil,
        redirectURI: String? = redirectURI
    ) async throws -> StratusHTTPResponse {
        var form: FormFields = ["grant_type": "authorization_code", "code": code, "client_id": configuration.clientID]
        if let redirectURI { form.append("redirect_uri", redirectURI) }
        if let verifier { form.append("code_verifier", verifier) }
        if let secret { form.append("client_secret", secret) }
        return try await post(paths.token, form: form)
    }

    /// Refreshes; the secret goes in the form when given.
    func refresh(_ refreshToken: String, secret: String? = nil, scope: String? = nil) async throws
        -> StratusHTTPResponse
    {
        var form: FormFields = [
            "grant_type": "refresh_token", "refresh_token": refreshToken, "client_id": configuration.clientID,
        ]
        if let secret { form.append("client_secret", secret) }
        if let scope { form.append("scope", scope) }
        return try await post(paths.token, form: form)
    }

    /// Authorizes with PKCE and exchanges the code; returns the parsed success JSON.
    func signIn(secret: String? = nil) async throws -> (json: [String: Any], pkce: PKCEPair, code: String) {
        let pkce = try PKCEPair()
        let authorization = try await authorize(pkce: pkce)
        let response = try await exchange(code: authorization.code, verifier: pkce.verifier, secret: secret)
        #expect(response.status == 200)
        return (try JSONObject.parse(response), pkce, authorization.code)
    }
}

/// Reads JSON answers the way a strict client would.
enum JSONObject {
    static func parse(_ response: StratusHTTPResponse) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: response.body)
        return try #require(
            object as? [String: Any], "not a JSON object: \(String(decoding: response.body, as: UTF8.self))")
    }

    /// The `error` of an OAuth error answer, after checking its shape.
    static func oauthError(_ response: StratusHTTPResponse) throws -> String {
        #expect(response.headers["Content-Type"] == "application/json")
        let object = try parse(response)
        #expect(Set(object.keys) == ["error", "error_description"])
        #expect(object["error_description"] is String)
        return try #require(object["error"] as? String)
    }

    /// Whether the raw body writes `key` as a bare integer (not a string, not a fraction).
    static func hasIntegerMember(_ key: String, in response: StratusHTTPResponse) -> Bool {
        let text = String(decoding: response.body, as: UTF8.self)
        return text.range(of: "\"\(key)\"\\s*:\\s*-?[0-9]+\\s*[,}]", options: .regularExpression) != nil
    }
}
