/// An access token and a refresh token issued directly, without the authorize step.
public struct IssuedTokens: Sendable, Hashable {
    /// The access token, valid for ``lifetime``.
    public var accessToken: String
    /// The refresh token.
    public var refreshToken: String
    /// How long the access token lives from now.
    public var lifetime: Duration
    /// The scopes granted.
    public var scopes: [String]

    /// Creates the value.
    /// - Parameters:
    ///   - accessToken: The access token.
    ///   - refreshToken: The refresh token.
    ///   - lifetime: How long the access token lives.
    ///   - scopes: The scopes granted.
    public init(accessToken: String, refreshToken: String, lifetime: Duration, scopes: [String]) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.lifetime = lifetime
        self.scopes = scopes
    }
}
