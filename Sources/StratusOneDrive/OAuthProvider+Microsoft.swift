public import Foundation
import StratusAdapterKit
public import StratusOAuth

extension OAuthProvider {
    /// The Microsoft identity platform (v2 endpoints) for a personal or work account:
    /// authorization code with PKCE at `login.microsoftonline.com/<tenant>/oauth2/v2.0/authorize`,
    /// tokens at `.../oauth2/v2.0/token`. Ask for the `offline_access` scope (see
    /// ``OAuthProvider/microsoftScopes(appFolderOnly:)``) to get a refresh token; Microsoft sends a new refresh
    /// token with every refresh, and `CredentialProvider` saves it in place of the old one
    /// (``/StratusOAuth/FileTokenStore`` writes it atomically). The v2 platform has no token
    /// revocation endpoint, so signing out forgets the token locally.
    /// - Parameters:
    ///   - clientID: The app registration's application (client) ID.
    ///   - clientSecret: The client secret of a confidential app, or `nil` for a public client
    ///     (PKCE only), which a desktop or mobile app is.
    ///   - tenant: `common` (the default: personal and work accounts), `consumers`,
    ///     `organizations`, or a tenant ID or domain.
    ///   - loginURL: The identity platform's host, `https://login.microsoftonline.com` by
    ///     default; a mock serves `<loginURL>/<tenant>/oauth2/v2.0/authorize` and `/token`.
    /// - Returns: The provider profile.
    public static func microsoft(
        clientID: String,
        clientSecret: String?,
        tenant: String = "common",
        loginURL: URL = OAuthProvider.microsoftLogin
    ) -> OAuthProvider {
        let base = loginURL.appending(path: tenant).appending(path: "oauth2/v2.0")
        return OAuthProvider(
            name: "Microsoft",
            clientID: clientID,
            clientSecret: clientSecret,
            authorizeURL: base.appending(path: "authorize"),
            tokenURL: base.appending(path: "token"),
            revocation: nil,
            authorizationParameters: [],
            tokenRejection: .microsoftGraph
        )
    }

    /// `https://login.microsoftonline.com`.
    public static var microsoftLogin: URL { .https(host: "login.microsoftonline.com") }

    /// The scopes a OneDrive remote asks for: `offline_access` (a refresh token) and
    /// `Files.ReadWrite.AppFolder` (the app folder only) or `Files.ReadWrite` (a folder of the
    /// user's drive).
    /// - Parameter appFolderOnly: Whether the remote is rooted at the app folder.
    /// - Returns: The scope names.
    public static func microsoftScopes(appFolderOnly: Bool) -> [String] {
        ["offline_access", appFolderOnly ? "Files.ReadWrite.AppFolder" : "Files.ReadWrite"]
    }
}

extension TokenRejection {
    /// Microsoft Graph: a 401 whose error code is `InvalidAuthenticationToken` (expired or not
    /// valid), or whose challenge says `invalid_token`.
    public static let microsoftGraph = TokenRejection { status, headers, body in
        guard status == 401 else { return false }
        if let parsed = OneDriveErrorBody.parse(body), parsed.codes.contains("InvalidAuthenticationToken") {
            return true
        }
        return TokenRejection.bearer.matches(status: status, headers: headers, body: body)
    }
}
