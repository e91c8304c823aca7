public import Foundation
import StratusHTTP

/// The credentials one sign-in produced: a short-lived access token and, for offline access, the
/// refresh token that obtains the next one.
///
/// The token is `Codable` as the JSON a ``FileTokenStore`` keeps:
/// `{"access_token": …, "refresh_token": …, "expires_at": <seconds since 1970>, "scopes": […], "token_type": "bearer"}`.
/// Its ``description``, `debugDescription` and mirror (what `dump` prints) never show either
/// token.
public struct OAuthToken: Codable, Hashable, Sendable {
    /// The bearer credential sent with each request.
    public var accessToken: String
    /// The credential that obtains a new access token, when the sign-in asked for offline access.
    public var refreshToken: String?
    /// When the access token stops working, or `nil` when the provider did not say.
    public var expiresAt: Date?
    /// The scopes the provider granted.
    public var scopes: [String]
    /// The token type the provider named, normally `bearer`.
    public var tokenType: String

    /// Creates a token.
    /// - Parameters:
    ///   - accessToken: The bearer credential.
    ///   - refreshToken: The refresh token, if any.
    ///   - expiresAt: When the access token expires, if known.
    ///   - scopes: The granted scopes.
    ///   - tokenType: The token type; `bearer` unless the provider said otherwise.
    public init(
        accessToken: String,
        refreshToken: String? = nil,
        expiresAt: Date? = nil,
        scopes: [String] = [],
        tokenType: String = "bearer"
    ) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.scopes = scopes
        self.tokenType = tokenType
    }

    /// Whether the access token has expired, or will within `margin`, at a moment.
    ///
    /// A token without a known expiry never counts as expired; a 401 tells instead.
    /// - Parameters:
    ///   - date: The moment to judge at; now by default.
    ///   - margin: How long before the real expiry the token already counts as expired, so a
    ///     request never leaves with a token that dies on the way.
    public func isExpired(at date: Date = Date(), margin: Duration = .zero) -> Bool {
        guard let expiresAt else { return false }
        return expiresAt.timeIntervalSince(date) <= margin.timeInterval
    }

    /// The value of the `Authorization` header: `Bearer <access token>`.
    ///
    /// Always the `Bearer` scheme, whatever case the provider used in ``tokenType``.
    public var authorizationHeaderValue: String { "Bearer \(accessToken)" }

    private enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case expiresAt = "expires_at"
        case scopes
        case tokenType = "token_type"
    }

    /// Decodes the stored form written by ``encode(to:)``; missing scopes read as none, a missing type as `bearer`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try container.decode(String.self, forKey: .accessToken)
        refreshToken = try container.decodeIfPresent(String.self, forKey: .refreshToken)
        // Seconds since 1970 rather than Date's own encoding, so the file reads the same whatever
        // date strategy an encoder was set up with.
        expiresAt = try container.decodeIfPresent(Double.self, forKey: .expiresAt).map(
            Date.init(timeIntervalSince1970:))
        scopes = try container.decodeIfPresent([String].self, forKey: .scopes) ?? []
        tokenType = try container.decodeIfPresent(String.self, forKey: .tokenType) ?? "bearer"
    }

    /// Encodes both credentials in clear (this is the stored form), with `expires_at` as seconds since 1970.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(accessToken, forKey: .accessToken)
        try container.encodeIfPresent(refreshToken, forKey: .refreshToken)
        try container.encodeIfPresent(expiresAt?.timeIntervalSince1970, forKey: .expiresAt)
        try container.encode(scopes, forKey: .scopes)
        try container.encode(tokenType, forKey: .tokenType)
    }
}

extension OAuthToken: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The token's shape with both credentials replaced by `<redacted>`.
    public var description: String {
        var parts = ["type: \(tokenType)", "access: \(Redaction.placeholder)"]
        parts.append("refresh: \(refreshToken == nil ? "none" : Redaction.placeholder)")
        if let expiresAt { parts.append("expires: \(expiresAt.formatted(.iso8601))") }
        if !scopes.isEmpty { parts.append("scopes: \(scopes.joined(separator: " "))") }
        return "OAuthToken(\(parts.joined(separator: ", ")))"
    }

    /// The same redacted text as ``description``: never a credential.
    public var debugDescription: String { description }

    /// A mirror without the credentials, so `dump(token)` is safe to log.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "accessToken": Redaction.placeholder,
                "refreshToken": refreshToken == nil ? "none" : Redaction.placeholder,
                "expiresAt": expiresAt.map { $0.formatted(.iso8601) } ?? "unknown",
                "scopes": scopes,
                "tokenType": tokenType,
            ])
    }
}

extension Duration {
    /// The duration in seconds, as Foundation counts time.
    var timeInterval: TimeInterval {
        let parts = components
        return TimeInterval(parts.seconds) + TimeInterval(parts.attoseconds) / 1e18
    }
}
