import Hummingbird
import MockSupport

/// The success JSON of the token endpoint, in the provider's shape.
enum TokenResponse {
    /// The answer to a successful code exchange or refresh.
    /// - Parameters:
    ///   - issue: What was issued.
    ///   - isCodeExchange: Whether it answers a code exchange (Dropbox then adds its account
    ///     fields and the scope; its refresh answers carry neither).
    ///   - configuration: The server's configuration.
    static func response(
        for issue: TokenIssue,
        isCodeExchange: Bool,
        configuration: MockAuthorizationServer.Configuration
    ) -> Response {
        let expiresIn = Int(issue.lifetime.components.seconds)
        let scope = issue.scopes.joined(separator: " ")
        let headers: HTTPFields = [.cacheControl: "no-store"]
        switch configuration.flavor {
        case .dropbox:
            return Response.json(
                DropboxTokenBody(
                    accessToken: issue.accessToken,
                    expiresIn: expiresIn,
                    scope: isCodeExchange ? scope : nil,
                    refreshToken: issue.refreshToken,
                    accountID: isCodeExchange ? configuration.accountID : nil,
                    userID: isCodeExchange ? configuration.userID : nil
                ),
                headers: headers
            )
        case .google:
            return Response.json(
                GoogleTokenBody(
                    accessToken: issue.accessToken,
                    expiresIn: expiresIn,
                    scope: scope,
                    refreshToken: issue.refreshToken
                ),
                headers: headers
            )
        case .microsoft:
            return Response.json(
                MicrosoftTokenBody(
                    accessToken: issue.accessToken, expiresIn: expiresIn, scope: scope,
                    refreshToken: issue.refreshToken),
                headers: headers
            )
        }
    }
}

/// Microsoft identity platform v2: `token_type: "Bearer"`, `scope`, `expires_in`,
/// `ext_expires_in`, `access_token`, and `refresh_token` with `offline_access`.
private struct MicrosoftTokenBody: Encodable {
    var tokenType = "Bearer"
    var scope: String
    var expiresIn: Int
    var extExpiresIn: Int
    var accessToken: String
    var refreshToken: String?

    init(accessToken: String, expiresIn: Int, scope: String, refreshToken: String?) {
        self.accessToken = accessToken
        self.expiresIn = expiresIn
        self.extExpiresIn = expiresIn
        self.scope = scope
        self.refreshToken = refreshToken
    }

    enum CodingKeys: String, CodingKey {
        case tokenType = "token_type"
        case scope
        case expiresIn = "expires_in"
        case extExpiresIn = "ext_expires_in"
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
    }
}

/// Dropbox: `access_token`, `token_type: "bearer"`, `expires_in`, and on a code exchange
/// `scope`, `account_id`, `uid`, plus `refresh_token` for offline access.
private struct DropboxTokenBody: Encodable {
    var accessToken: String
    var tokenType = "bearer"
    var expiresIn: Int
    var scope: String?
    var refreshToken: String?
    var accountID: String?
    var userID: String?

    init(
        accessToken: String, expiresIn: Int, scope: String?, refreshToken: String?, accountID: String?, userID: String?
    ) {
        self.accessToken = accessToken
        self.expiresIn = expiresIn
        self.scope = scope
        self.refreshToken = refreshToken
        self.accountID = accountID
        self.userID = userID
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case scope
        case refreshToken = "refresh_token"
        case accountID = "account_id"
        case userID = "uid"
    }
}

/// Google: `access_token`, `expires_in`, `scope`, `token_type: "Bearer"`, and
/// `refresh_token` for offline access (on a refresh, only when tokens rotate).
private struct GoogleTokenBody: Encodable {
    var accessToken: String
    var expiresIn: Int
    var scope: String
    var tokenType = "Bearer"
    var refreshToken: String?

    init(accessToken: String, expiresIn: Int, scope: String, refreshToken: String?) {
        self.accessToken = accessToken
        self.expiresIn = expiresIn
        self.scope = scope
        self.refreshToken = refreshToken
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case expiresIn = "expires_in"
        case scope
        case tokenType = "token_type"
        case refreshToken = "refresh_token"
    }
}
