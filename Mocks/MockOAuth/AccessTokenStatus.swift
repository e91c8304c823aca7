/// What the authorization server knows about an access token.
public enum AccessTokenStatus: Sendable, Hashable {
    /// Issued, not expired, not revoked; carries the scopes it grants.
    case valid(scopes: [String])
    /// Issued, not revoked, but past its lifetime (or expired by
    /// ``MockAuthorizationServer/expireAllAccessTokens()``).
    case expired
    /// Never issued by this server, or revoked.
    case invalid

    /// Whether the token may be used.
    public var isValid: Bool {
        if case .valid = self { return true }
        return false
    }
}
