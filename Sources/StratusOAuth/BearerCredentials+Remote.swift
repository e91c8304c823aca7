import Foundation
public import Stratus
public import StratusHTTP

extension BearerCredentials {
    /// The credentials a configured remote names: its `access_token` as is, or else the
    /// sign-in kept in its `token_store` file, refreshed through the provider.
    /// - Parameters:
    ///   - options: The remote's options.
    ///   - clientIDOption: The option holding the OAuth client ID, such as `app_key`.
    ///   - clientSecretOption: The option holding the client secret, if any.
    ///   - http: The client the token requests go through.
    ///   - signInHint: What to tell the user when the sign-in must be done again.
    ///   - provider: The OAuth provider for a client ID and secret.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidConfiguration`` naming the missing option.
    public static func forRemote(
        _ options: RemoteOptions,
        clientIDOption: String,
        clientSecretOption: String,
        http: StratusHTTPClient,
        signInHint: String,
        provider: (_ clientID: String, _ clientSecret: String?) -> OAuthProvider
    ) throws -> BearerCredentials {
        if let token = options.string("access_token"), !token.isEmpty {
            return .accessToken(token)
        }
        let clientID = try options.requiredString(clientIDOption)
        let storePath = try options.requiredString("token_store")
        let secret = options.string(clientSecretOption).flatMap { $0.isEmpty ? nil : $0 }
        let client = OAuthClient(provider: provider(clientID, secret), http: http, signInHint: signInHint)
        let store = FileTokenStore(url: URL(filePath: NSString(string: storePath).expandingTildeInPath))
        return .provider(CredentialProvider(client: client, store: store))
    }
}
