import Foundation
public import Stratus
public import StratusHTTP

extension BearerCredentials {
    /// The credentials a configured remote names: its ``Stratus/BackendOption/accessToken``
    /// as is, or else the sign-in kept in its ``Stratus/BackendOption/tokenStore`` file,
    /// refreshed through the provider.
    ///
    /// ```swift
    /// let http = try context.sharedHTTPClient(for: options)
    /// let credentials = try BearerCredentials.forRemote(options, http: http) { clientID, secret in
    ///     .google(clientID: clientID, clientSecret: secret)
    /// }
    /// ```
    /// - Parameters:
    ///   - options: The remote's options.
    ///   - clientIDOption: The option holding the OAuth client ID, `client_id` unless the
    ///     provider names it otherwise (Dropbox: `app_key`).
    ///   - clientSecretOption: The option holding the client secret, if any; `client_secret`
    ///     unless named otherwise.
    ///   - http: The client the token requests go through.
    ///   - signInHint: What to tell the user when the sign-in must be done again; by default
    ///     "Sign in to <provider> again for remote '<remote>'."
    ///   - provider: The OAuth provider for a client ID and secret.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidConfiguration`` naming the missing option.
    public static func forRemote(
        _ options: RemoteOptions,
        clientIDOption: String = "client_id",
        clientSecretOption: String = "client_secret",
        http: StratusHTTPClient,
        signInHint: String? = nil,
        provider: (_ clientID: String, _ clientSecret: String?) -> OAuthProvider
    ) throws -> BearerCredentials {
        if let token = options.string(BackendOption.accessToken.name), !token.isEmpty {
            return .accessToken(token)
        }
        let clientID = try options.requiredString(clientIDOption)
        let storePath = try options.requiredString(BackendOption.tokenStore.name)
        let secret = options.string(clientSecretOption).flatMap { $0.isEmpty ? nil : $0 }
        let profile = provider(clientID, secret)
        let hint = signInHint ?? "Sign in to \(profile.name) again for remote '\(options.remoteName)'."
        let client = OAuthClient(provider: profile, http: http, signInHint: hint)
        let store = FileTokenStore(url: URL(filePath: NSString(string: storePath).expandingTildeInPath))
        return .provider(CredentialProvider(client: client, store: store))
    }
}
