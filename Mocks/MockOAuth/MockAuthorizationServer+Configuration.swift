extension MockAuthorizationServer {
    /// Which provider's OAuth 2 endpoints the server imitates.
    public enum Flavor: Sendable, Hashable, CustomStringConvertible {
        /// Dropbox: `/oauth2/authorize`, `/oauth2/token`, `/2/auth/token/revoke`; access tokens
        /// start with `sl.`, last four hours, and come with `account_id` and `uid`.
        case dropbox
        /// Google: `/o/oauth2/v2/auth`, `/token`, `/revoke`; access tokens start with `ya29.`
        /// and last 3599 seconds.
        case google
        /// Microsoft identity platform v2 (OneDrive): `/common/oauth2/v2.0/authorize` and
        /// `/common/oauth2/v2.0/token`, no revocation endpoint; access tokens start with `EwA`
        /// and last 3599 seconds, and `offline_access` among the scopes asks for a refresh token.
        case microsoft

        /// The scopes an app has when the configuration names none.
        public var defaultScopes: [String] {
            switch self {
            case .dropbox:
                [
                    "account_info.read", "files.content.read", "files.content.write", "files.metadata.read",
                    "files.metadata.write",
                ]
            case .google:
                ["https://www.googleapis.com/auth/drive"]
            case .microsoft:
                ["Files.ReadWrite", "Files.ReadWrite.AppFolder", "User.Read", "offline_access", "openid", "profile"]
            }
        }

        /// How long the provider's access tokens live: 14,400 s for Dropbox, 3599 s for Google and
        /// Microsoft.
        public var defaultAccessTokenLifetime: Duration {
            switch self {
            case .dropbox: .seconds(14_400)
            case .google, .microsoft: .seconds(3_599)
            }
        }

        /// `dropbox`, `google` or `microsoft`.
        public var description: String {
            switch self {
            case .dropbox: "dropbox"
            case .google: "google"
            case .microsoft: "microsoft"
            }
        }
    }

    /// The one registered client (app) and how the server treats it. Every field has a default.
    public struct Configuration: Sendable {
        /// Which provider the server imitates.
        public var flavor: Flavor
        /// The client's ID (Dropbox: app key).
        public var clientID: String
        /// The client's secret (Dropbox: app secret), or `nil` for a public client that must use
        /// PKCE and never sends a secret.
        public var clientSecret: String?
        /// How long an access token lives; `expires_in` is its whole seconds.
        public var accessTokenLifetime: Duration
        /// How long an authorization code may wait before it is exchanged.
        public var authorizationCodeLifetime: Duration
        /// Whether each refresh answers with a new refresh token and retires the one it used.
        public var rotatesRefreshTokens: Bool
        /// Whether the simulated user approves at once. When `false`, the user declines: the
        /// authorize step redirects with `error=access_denied`.
        public var autoApprove: Bool
        /// The scopes the app may have; an authorization that names none gets all of them.
        public var scopes: [String]
        /// The redirect URIs registered for the client, or `nil` to accept any absolute URI
        /// without a fragment. A registered loopback URI (`http://127.0.0.1`, `http://[::1]`,
        /// `http://localhost`) matches on any port, as RFC 8252 asks.
        public var allowedRedirectURIs: [String]?
        /// The Dropbox account ID returned with a code exchange.
        public var accountID: String
        /// The Dropbox user ID (`uid`) returned with a code exchange.
        public var userID: String

        /// Creates a configuration.
        /// - Parameters:
        ///   - flavor: Which provider the server imitates.
        ///   - clientID: The client's ID.
        ///   - clientSecret: The client's secret, or `nil` for a PKCE-only public client.
        ///   - accessTokenLifetime: How long an access token lives; `nil` for the provider's
        ///     real lifetime (``Flavor/defaultAccessTokenLifetime``).
        ///   - authorizationCodeLifetime: How long a code may wait before its exchange.
        ///   - rotatesRefreshTokens: Whether a refresh replaces the refresh token.
        ///   - autoApprove: Whether the simulated user approves (or declines).
        ///   - scopes: The scopes the app may have; `nil` for ``Flavor/defaultScopes``.
        ///   - allowedRedirectURIs: Registered redirect URIs, or `nil` to accept any.
        ///   - accountID: The Dropbox account ID.
        ///   - userID: The Dropbox user ID.
        public init(
            flavor: Flavor,
            clientID: String = "stratus-test-client",
            clientSecret: String? = "stratus-test-secret",
            accessTokenLifetime: Duration? = nil,
            authorizationCodeLifetime: Duration = .seconds(600),
            rotatesRefreshTokens: Bool = false,
            autoApprove: Bool = true,
            scopes: [String]? = nil,
            allowedRedirectURIs: [String]? = nil,
            accountID: String = "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc",
            userID: String = "12345"
        ) {
            self.flavor = flavor
            self.clientID = clientID
            self.clientSecret = clientSecret
            self.accessTokenLifetime = accessTokenLifetime ?? flavor.defaultAccessTokenLifetime
            self.authorizationCodeLifetime = authorizationCodeLifetime
            self.rotatesRefreshTokens = rotatesRefreshTokens
            self.autoApprove = autoApprove
            self.scopes = scopes ?? flavor.defaultScopes
            self.allowedRedirectURIs = allowedRedirectURIs
            self.accountID = accountID
            self.userID = userID
        }
    }
}
