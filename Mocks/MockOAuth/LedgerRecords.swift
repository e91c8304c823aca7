/// What the authorize step approved, waiting to be exchanged for tokens.
struct ApprovedAuthorization: Sendable {
    var clientID: String
    /// The redirect URI given at the authorize step, which the exchange must repeat exactly.
    var redirectURI: String?
    /// The S256 code challenge, when the client used PKCE.
    var codeChallenge: String?
    var scopes: [String]
    /// Whether a refresh token comes with the exchange (`token_access_type=offline`,
    /// `access_type=offline`).
    var offline: Bool
}

/// An authorization code and what became of it.
struct CodeRecord: Sendable {
    var authorization: ApprovedAuthorization
    var expiresAt: ContinuousClock.Instant
    /// The grant created by the exchange, once the code was used.
    var redeemedAs: Int?
}

/// One authorization the user gave a client: the tokens issued from it share its fate.
struct GrantRecord: Sendable {
    var clientID: String
    var scopes: [String]
    /// Whether its refresh token may be used without the client secret (the code was
    /// exchanged with PKCE and no secret, or the client is public).
    var refreshesWithoutSecret: Bool
    var revoked = false
}

/// An access token.
struct AccessTokenRecord: Sendable {
    var grant: Int
    var scopes: [String]
    var expiresAt: ContinuousClock.Instant
    /// Set by `expireAllAccessTokens()`.
    var forcedExpired = false
}

/// A refresh token.
struct RefreshTokenRecord: Sendable {
    var grant: Int
    /// Cleared when rotation replaced the token.
    var current = true
}

/// Tokens issued by one successful call.
struct TokenIssue: Sendable {
    var accessToken: String
    var refreshToken: String?
    var scopes: [String]
    var lifetime: Duration
}

/// Fresh random values made before taking the ledger's lock.
struct FreshTokens: Sendable {
    var accessToken: String
    var refreshToken: String

    init(_ factory: TokenFactory) {
        accessToken = factory.accessToken()
        refreshToken = factory.refreshToken()
    }
}
