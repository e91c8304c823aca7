import Hummingbird
import MockSupport

/// A mock OAuth 2 authorization server speaking Dropbox's or Google's wire protocol: the
/// authorize step (approved or declined at once by a simulated user), the token endpoint
/// (code exchange with PKCE or a client secret, refresh, optional rotation) and revocation.
///
/// ```swift
/// let server = MockAuthorizationServer(configuration: .init(flavor: .dropbox))
/// let router = Router()
/// server.addRoutes(to: router)
/// try await MockServer.withRunning(router) { baseURL in
///     // authorize at baseURL/oauth2/authorize, exchange at baseURL/oauth2/token
/// }
/// ```
///
/// Provider mocks mounted on the same router check bearer tokens with
/// ``validate(accessToken:)``. Tests steer the server with ``expireAllAccessTokens()`` and
/// ``revoke(refreshToken:)``, and read ``refreshCount``, ``codeExchangeCount`` and
/// ``requestLog``. Tokens and codes are opaque random strings; expiry follows the real clock.
/// Safe to use from any number of tasks at once.
public final class MockAuthorizationServer: Sendable {
    /// The registered client and how the server treats it.
    public let configuration: Configuration
    /// Every request the server's routes answered, secrets redacted.
    public let requestLog: RequestLog
    private let ledger: TokenLedger
    private let tokens: TokenFactory

    /// Creates a server with no tokens issued yet.
    /// - Parameters:
    ///   - configuration: The registered client and the provider imitated.
    ///   - requestLog: Where requests are recorded; pass a shared log to see the requests of
    ///     several mocks in one place.
    public init(configuration: Configuration, requestLog: RequestLog = RequestLog()) {
        self.configuration = configuration
        self.requestLog = requestLog
        self.ledger = TokenLedger(configuration: configuration)
        self.tokens = TokenFactory(flavor: configuration.flavor)
    }

    /// The paths of the flavor's endpoints, relative to the base URL.
    public var paths: Paths { Paths(flavor: configuration.flavor) }

    /// Mounts the flavor's routes on a router, each recorded in ``requestLog``.
    ///
    /// Dropbox: `GET /oauth2/authorize`, `POST /oauth2/token`, `POST /2/auth/token/revoke`.
    /// Google: `GET /o/oauth2/v2/auth`, `POST /token`, `POST /revoke`.
    /// Microsoft: `GET /common/oauth2/v2.0/authorize`, `POST /common/oauth2/v2.0/token`.
    /// - Parameter router: The router, possibly shared with a provider mock.
    public func addRoutes(to router: Router<BasicRequestContext>) {
        let routes = router.group().add(middleware: RequestLogMiddleware(log: requestLog))
        let authorize = AuthorizeEndpoint(configuration: configuration, ledger: ledger, tokens: tokens)
        let token = TokenEndpoint(configuration: configuration, ledger: ledger, tokens: tokens)
        let revoke = RevokeEndpoint(ledger: ledger)
        let paths = self.paths
        routes.get(RouterPath(paths.authorize)) { request, _ in authorize.respond(to: request) }
        routes.post(RouterPath(paths.token)) { request, _ in try await token.respond(to: request) }
        switch configuration.flavor {
        case .dropbox:
            routes.post(RouterPath(paths.revoke)) { request, _ in try await revoke.respondForDropbox(to: request) }
        case .google:
            routes.post(RouterPath(paths.revoke)) { request, _ in try await revoke.respondForGoogle(to: request) }
        case .microsoft:
            // The identity platform has no revocation endpoint.
            break
        }
    }

    /// What the server knows about an access token: valid with its scopes, expired, or
    /// invalid (never issued, or revoked).
    /// - Parameter accessToken: The bearer token a request carried.
    public func validate(accessToken: String) -> AccessTokenStatus {
        ledger.status(ofAccessToken: accessToken)
    }

    /// Issues an access token and a refresh token as if the user had just authorized the
    /// registered client, without the authorize step. The refresh token needs the client
    /// secret to be used, unless the client is public.
    /// - Parameter scopes: The scopes to grant; `nil` for every scope the app may have.
    /// - Returns: The tokens.
    public func issueTokens(scopes: [String]? = nil) -> IssuedTokens {
        ledger.issue(scopes: scopes ?? configuration.scopes, fresh: FreshTokens(tokens))
    }

    /// Expires every access token issued so far; later ones live their normal lifetime.
    public func expireAllAccessTokens() {
        ledger.expireAllAccessTokens()
    }

    /// Revokes a refresh token, as a user removing the app's access would: later refreshes
    /// with it fail with `invalid_grant`, and the access tokens issued from the same
    /// authorization become invalid.
    /// - Parameter refreshToken: The refresh token.
    /// - Returns: Whether the token was current and not yet revoked.
    @discardableResult
    public func revoke(refreshToken: String) -> Bool {
        ledger.revokeGrant(ofRefreshToken: refreshToken)
    }

    /// The number of successful refreshes so far.
    public var refreshCount: Int { ledger.refreshCount }

    /// The number of successful code exchanges so far.
    public var codeExchangeCount: Int { ledger.codeExchangeCount }
}

extension MockAuthorizationServer {
    /// The paths of a flavor's endpoints, each starting with `/`.
    public struct Paths: Sendable, Hashable {
        /// Where the user is sent to authorize: `/oauth2/authorize`, `/o/oauth2/v2/auth` or
        /// `/common/oauth2/v2.0/authorize`.
        public var authorize: String
        /// The token endpoint: `/oauth2/token`, `/token` or `/common/oauth2/v2.0/token`.
        public var token: String
        /// The revocation endpoint: `/2/auth/token/revoke` or `/revoke`; empty for Microsoft, which
        /// has none.
        public var revoke: String

        /// The paths of a flavor.
        /// - Parameter flavor: The provider imitated.
        public init(flavor: Flavor) {
            switch flavor {
            case .dropbox:
                authorize = "/oauth2/authorize"
                token = "/oauth2/token"
                revoke = "/2/auth/token/revoke"
            case .google:
                authorize = "/o/oauth2/v2/auth"
                token = "/token"
                revoke = "/revoke"
            case .microsoft:
                authorize = "/common/oauth2/v2.0/authorize"
                token = "/common/oauth2/v2.0/token"
                revoke = ""
            }
        }
    }
}
