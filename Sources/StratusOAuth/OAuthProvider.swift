public import Foundation
import StratusHTTP

/// Everything that differs between OAuth 2 providers: endpoints, client credentials, the extra
/// authorization parameters that ask for offline access, how revocation is called, and which
/// 401 answers mean "this access token is expired or invalid".
///
/// Use ``dropbox(clientID:clientSecret:authorizeURL:tokenURL:revokeURL:)`` or
/// ``google(clientID:clientSecret:authorizeURL:tokenURL:revokeURL:)``; every URL can be
/// overridden so a mock server can stand in. Client credentials travel as form fields
/// (`client_id`, `client_secret`), which both providers accept.
public struct OAuthProvider: Sendable, CustomStringConvertible, CustomReflectable {
    /// The provider's name for messages, such as `Dropbox`.
    public var name: String
    /// The app's client ID (Dropbox: app key).
    public var clientID: String
    /// The app's client secret, or `nil` for a PKCE-only public client.
    public var clientSecret: String?
    /// The authorization page the browser opens.
    public var authorizeURL: URL
    /// The token endpoint (code exchange and refresh).
    public var tokenURL: URL
    /// How a grant is revoked, or `nil` when the provider offers no revocation.
    public var revocation: Revocation?
    /// Parameters added to every authorization URL, such as `token_access_type=offline`.
    public var authorizationParameters: [(name: String, value: String)]
    /// Which 401 answers of the provider's API mean the access token is expired or invalid.
    public var tokenRejection: TokenRejection

    /// How a provider's revocation endpoint is called.
    public struct Revocation: Sendable {
        /// How the token travels.
        public enum Style: Sendable {
            /// `POST url` with `Authorization: Bearer <access token>` and no body (Dropbox's
            /// `/2/auth/token/revoke`, which disables the access token and its refresh token).
            case bearer
            /// `POST url` with the form field `token=<refresh token, else access token>`
            /// (RFC 7009; Google's `/revoke`, which ends the whole grant).
            case formToken
        }

        /// The endpoint.
        public var url: URL
        /// How the token travels.
        public var style: Style

        /// Creates a revocation description.
        public init(url: URL, style: Style) {
            self.url = url
            self.style = style
        }
    }

    /// Creates a provider profile.
    /// - Parameters:
    ///   - name: The provider's name for messages.
    ///   - clientID: The app's client ID.
    ///   - clientSecret: The client secret, or `nil` for a PKCE-only client.
    ///   - authorizeURL: The authorization page.
    ///   - tokenURL: The token endpoint.
    ///   - revocation: How to revoke, if the provider can.
    ///   - authorizationParameters: Extra authorization URL parameters.
    ///   - tokenRejection: Which 401 answers mean the access token must be refreshed.
    public init(
        name: String,
        clientID: String,
        clientSecret: String?,
        authorizeURL: URL,
        tokenURL: URL,
        revocation: Revocation?,
        authorizationParameters: [(name: String, value: String)] = [],
        tokenRejection: TokenRejection = .bearer
    ) {
        self.name = name
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.authorizeURL = authorizeURL
        self.tokenURL = tokenURL
        self.revocation = revocation
        self.authorizationParameters = authorizationParameters
        self.tokenRejection = tokenRejection
    }

    /// The endpoints and client ID; the client secret is redacted.
    public var description: String {
        let secret = clientSecret == nil ? "none" : Redaction.placeholder
        return
            "OAuthProvider(\(name), client: \(clientID), secret: \(secret), authorize: \(Redaction.url(authorizeURL)), token: \(Redaction.url(tokenURL)))"
    }

    /// A mirror without the client secret, so `dump` is safe to log.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "name": name, "clientID": clientID,
                "clientSecret": clientSecret == nil ? "none" : Redaction.placeholder,
                "authorizeURL": Redaction.url(authorizeURL), "tokenURL": Redaction.url(tokenURL),
            ])
    }
}

extension OAuthProvider {
    /// Dropbox: authorization at `www.dropbox.com/oauth2/authorize` with
    /// `token_access_type=offline` (so a refresh token is issued), tokens at
    /// `api.dropboxapi.com/oauth2/token`, revocation by `POST /2/auth/token/revoke` with the
    /// bearer token.
    /// - Parameters:
    ///   - clientID: The app key.
    ///   - clientSecret: The app secret, or `nil` for a PKCE-only app.
    ///   - authorizeURL: The authorization page.
    ///   - tokenURL: The token endpoint.
    ///   - revokeURL: The revocation route.
    public static func dropbox(
        clientID: String,
        clientSecret: String?,
        authorizeURL: URL = URL(string: "https://www.dropbox.com/oauth2/authorize")!,
        tokenURL: URL = URL(string: "https://api.dropboxapi.com/oauth2/token")!,
        revokeURL: URL = URL(string: "https://api.dropboxapi.com/2/auth/token/revoke")!
    ) -> OAuthProvider {
        OAuthProvider(
            name: "Dropbox",
            clientID: clientID,
            clientSecret: clientSecret,
            authorizeURL: authorizeURL,
            tokenURL: tokenURL,
            revocation: Revocation(url: revokeURL, style: .bearer),
            authorizationParameters: [("token_access_type", "offline")],
            tokenRejection: .dropbox
        )
    }

    /// Dropbox with every endpoint under one base URL, as a mock server serves them:
    /// `/oauth2/authorize`, `/oauth2/token` and `/2/auth/token/revoke`.
    public static func dropbox(clientID: String, clientSecret: String?, baseURL: URL) -> OAuthProvider {
        dropbox(
            clientID: clientID,
            clientSecret: clientSecret,
            authorizeURL: baseURL.appending(path: "oauth2/authorize"),
            tokenURL: baseURL.appending(path: "oauth2/token"),
            revokeURL: baseURL.appending(path: "2/auth/token/revoke")
        )
    }

    /// Google: authorization at `accounts.google.com/o/oauth2/v2/auth` with
    /// `access_type=offline` and `prompt=consent` (so a refresh token is issued on every
    /// sign-in, not only the first), tokens at `oauth2.googleapis.com/token`, revocation by
    /// `POST oauth2.googleapis.com/revoke` with the token as a form field.
    /// - Parameters:
    ///   - clientID: The OAuth client ID.
    ///   - clientSecret: The client secret (installed apps have one too), or `nil`.
    ///   - authorizeURL: The authorization page.
    ///   - tokenURL: The token endpoint.
    ///   - revokeURL: The revocation endpoint.
    public static func google(
        clientID: String,
        clientSecret: String?,
        authorizeURL: URL = URL(string: "https://accounts.google.com/o/oauth2/v2/auth")!,
        tokenURL: URL = URL(string: "https://oauth2.googleapis.com/token")!,
        revokeURL: URL = URL(string: "https://oauth2.googleapis.com/revoke")!
    ) -> OAuthProvider {
        OAuthProvider(
            name: "Google",
            clientID: clientID,
            clientSecret: clientSecret,
            authorizeURL: authorizeURL,
            tokenURL: tokenURL,
            revocation: Revocation(url: revokeURL, style: .formToken),
            authorizationParameters: [("access_type", "offline"), ("prompt", "consent")],
            tokenRejection: .google
        )
    }

    /// Google with every endpoint under one base URL, as a mock server serves them:
    /// `/o/oauth2/v2/auth`, `/token` and `/revoke`.
    public static func google(clientID: String, clientSecret: String?, baseURL: URL) -> OAuthProvider {
        google(
            clientID: clientID,
            clientSecret: clientSecret,
            authorizeURL: baseURL.appending(path: "o/oauth2/v2/auth"),
            tokenURL: baseURL.appending(path: "token"),
            revokeURL: baseURL.appending(path: "revoke")
        )
    }
}
