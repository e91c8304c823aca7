import Foundation
import Hummingbird
import Logging
import MockOAuth
import MockSupport
import Stratus
import StratusHTTP
import StratusOAuth
import Synchronization
import Testing

/// A mock authorization server on a loopback port with a protected API route beside it, and the
/// Stratus pieces pointed at it.
struct MockHarness: Sendable {
    /// A protected route: 200 for a valid bearer token, otherwise the flavor's 401 (Dropbox
    /// `expired_access_token` / `invalid_access_token`, Google `authError`).
    static let protectedPath = "/2/users/get_current_account"

    let server: MockAuthorizationServer
    let baseURL: URL
    let http: StratusHTTPClient
    /// The bearer tokens the protected route saw, in order.
    let seenTokens: Recorder

    /// Runs `body` with a fresh mock server, then stops it.
    static func with<Result: Sendable>(
        _ configuration: MockAuthorizationServer.Configuration,
        httpLogger: Logger? = nil,
        _ body: @Sendable (MockHarness) async throws -> Result
    ) async throws -> Result {
        let server = MockAuthorizationServer(configuration: configuration)
        let router = Router()
        server.addRoutes(to: router)
        let seen = Recorder()
        router.post(RouterPath(protectedPath)) { request, _ -> Response in
            let header = request.headers[.authorization] ?? ""
            let token = header.hasPrefix("Bearer ") ? String(header.dropFirst(7)) : ""
            seen.append(token)
            let status = server.validate(accessToken: token)
            if status.isValid { return Response.json(text: #"{"account_id": "dbid:test"}"#) }
            switch (configuration.flavor, status) {
            case (.google, _), (.microsoft, _):
                return Response.json(
                    text:
                        #"{"error": {"code": 401, "message": "Request had invalid authentication credentials.", "errors": [{"message": "Invalid Credentials", "domain": "global", "reason": "authError", "location": "Authorization", "locationType": "header"}], "status": "UNAUTHENTICATED"}}"#,
                    status: .unauthorized)
            case (.dropbox, .expired):
                return Response.json(
                    text: #"{"error_summary": "expired_access_token/..", "error": {".tag": "expired_access_token"}}"#,
                    status: .unauthorized)
            case (.dropbox, _):
                return Response.json(
                    text: #"{"error_summary": "invalid_access_token/..", "error": {".tag": "invalid_access_token"}}"#,
                    status: .unauthorized)
            }
        }
        var configuration = StratusHTTPClient.Configuration()
        if let httpLogger { configuration.logger = httpLogger }
        let http = try StratusHTTPClient(configuration: configuration)
        do {
            let result = try await MockServer.withRunning(router) { url in
                try await body(MockHarness(server: server, baseURL: url, http: http, seenTokens: seen))
            }
            await http.shutdown()
            return result
        } catch {
            await http.shutdown()
            throw error
        }
    }

    /// The provider profile pointed at the mock.
    var provider: OAuthProvider {
        let configuration = server.configuration
        switch configuration.flavor {
        case .dropbox:
            return .dropbox(
                clientID: configuration.clientID, clientSecret: configuration.clientSecret, baseURL: baseURL)
        case .google, .microsoft:
            // No test of this harness uses Microsoft's flavor (the OneDrive adapter tests its sign-in).
            return .google(clientID: configuration.clientID, clientSecret: configuration.clientSecret, baseURL: baseURL)
        }
    }

    /// An OAuth client for the mock.
    func client(logger: Logger? = nil, signInHint: String? = nil) -> OAuthClient {
        if let logger {
            return OAuthClient(
                provider: provider, http: http, retryPolicy: quickRetries, signInHint: signInHint, logger: logger)
        }
        return OAuthClient(provider: provider, http: http, retryPolicy: quickRetries, signInHint: signInHint)
    }

    /// How many requests reached the token endpoint.
    var tokenRequests: Int { server.requestLog.entries(path: server.paths.token).count }

    /// The protected route's request.
    var protectedRequest: StratusHTTPRequest {
        StratusHTTPRequest(method: .post, url: baseURL.appending(path: String(Self.protectedPath.dropFirst())))
    }

    /// Tokens issued by the mock without the authorize step, as a stored token.
    func issueToken(expired: Bool = false) -> OAuthToken {
        let issued = server.issueTokens()
        let lifetime = expired ? -3600 : issued.lifetime.timeInterval
        return OAuthToken(
            accessToken: issued.accessToken,
            refreshToken: issued.refreshToken,
            expiresAt: Date().addingTimeInterval(lifetime),
            scopes: issued.scopes
        )
    }

    /// Plays the browser: opens the authorization URL, takes the 302 and follows it into the
    /// loopback receiver.
    /// - Returns: The redirect's query (holding the code) and the receiver's page.
    @discardableResult
    func followAsBrowser(_ url: URL) async throws -> (redirect: URLComponents, page: String) {
        let authorize = try await http.execute(StratusHTTPRequest(url: url))
        #expect(authorize.status == 302)
        let location = try #require(authorize.headers["Location"])
        let redirect = try #require(URLComponents(string: location))
        let landing = try await http.execute(StratusHTTPRequest(url: try #require(redirect.url)))
        return (redirect, String(decoding: landing.body, as: UTF8.self))
    }
}

/// Strings recorded from any task.
final class Recorder: Sendable {
    private let values = Mutex<[String]>([])
    func append(_ value: String) { values.withLock { $0.append(value) } }
    var all: [String] { values.withLock { $0 } }
}

extension Duration {
    var timeInterval: TimeInterval {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

extension URLComponents {
    func value(_ name: String) -> String? { queryItems?.first { $0.name == name }?.value }
}
