import Foundation
import Stratus
import StratusCrypt
import StratusDrive
import StratusDropbox
import StratusHTTP
import StratusLocal
import StratusOAuth
import StratusOneDrive
import StratusS3
import StratusWebDAV

/// The backends the `stratus` tool knows, and how each signs in. Adding a backend is one line
/// in ``registry`` (and one case in ``signInProfile(for:)`` when it uses OAuth).
enum Backends {
    /// Every backend the tool can build by type name.
    static let registry = ServiceRegistry(backends: [
        LocalBackend.self, DropboxBackend.self, DriveBackend.self, S3Backend.self, WebDAVBackend.self,
        OneDriveBackend.self, CryptBackend.self,
    ])

    /// How `stratus login` signs in to a remote: the OAuth profile and where the token goes.
    struct SignInProfile {
        var provider: OAuthProvider
        var tokenStore: URL
        var scopes: [String]
    }

    /// The OAuth profile of a remote, built from its (validated) options.
    /// - Returns: `nil` when the remote's type does not sign in (such as `local`).
    /// - Throws: ``ServiceError`` (`invalidConfiguration`) naming the option to set.
    static func signInProfile(for options: RemoteOptions) throws -> SignInProfile? {
        switch options.typeName.lowercased() {
        case DropboxBackend.typeName:
            let appKey = try options.requiredString("app_key")
            let store = try options.requiredString("token_store")
            let secret = options.string("app_secret").flatMap { $0.isEmpty ? nil : $0 }
            let provider: OAuthProvider =
                if let apiURL = try options.url("api_url") {
                    .dropbox(clientID: appKey, clientSecret: secret, baseURL: apiURL)
                } else {
                    .dropbox(clientID: appKey, clientSecret: secret)
                }
            return SignInProfile(provider: provider, tokenStore: expandedFile(store), scopes: [])
        case DriveBackend.typeName:
            let clientID = try options.requiredString("client_id")
            let store = try options.requiredString("token_store")
            let secret = options.string("client_secret").flatMap { $0.isEmpty ? nil : $0 }
            let provider: OAuthProvider =
                if let oauthURL = try options.url("oauth_url") ?? options.url("api_url") {
                    .google(clientID: clientID, clientSecret: secret, baseURL: oauthURL)
                } else {
                    .google(clientID: clientID, clientSecret: secret)
                }
            // The hidden app folder, and files the app itself created in My Drive.
            let scopes = [
                "https://www.googleapis.com/auth/drive.appdata", "https://www.googleapis.com/auth/drive.file",
            ]
            return SignInProfile(provider: provider, tokenStore: expandedFile(store), scopes: scopes)
        case OneDriveBackend.typeName:
            let clientID = try options.requiredString("client_id")
            let store = try options.requiredString("token_store")
            let secret = options.string("client_secret").flatMap { $0.isEmpty ? nil : $0 }
            let provider = try OneDriveBackend.provider(options, clientID: clientID, secret: secret)
            // The app folder only, unless the remote is rooted in the user's drive.
            let appFolderOnly = try OneDriveRoot(option: options.string("root") ?? "") == .appFolder
            return SignInProfile(
                provider: provider, tokenStore: expandedFile(store),
                scopes: OAuthProvider.microsoftScopes(appFolderOnly: appFolderOnly))
        default:
            return nil
        }
    }

    private static func expandedFile(_ path: String) -> URL {
        URL(filePath: NSString(string: path).expandingTildeInPath)
    }
}
