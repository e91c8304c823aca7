public import Foundation
public import Logging
public import Stratus
import StratusAdapterKit
public import StratusHTTP

/// The OAuth 2 calls of one app at one provider: the authorization URL (with PKCE and `state`),
/// the code exchange, refresh and revocation.
///
/// ```swift
/// let client = OAuthClient(provider: .dropbox(clientID: key, clientSecret: nil), http: http)
/// let token = try await client.signIn(scopes: ["files.content.write"]) { url in
///     print("Open \(url) to sign in")
/// }
/// ```
///
/// Token requests that fail transiently (HTTP 5xx, 429, network) are repeated with
/// ``retryPolicy``; an `invalid_grant` answer is never repeated and becomes
/// ``/Stratus/ServiceError/Code/reauthenticationRequired``. No secret (access or refresh token,
/// client secret, authorization code, PKCE verifier) appears in a log line or an error.
public struct OAuthClient: Sendable {
    /// The provider profile.
    public var provider: OAuthProvider
    /// The HTTP client the token requests go through.
    public var http: StratusHTTPClient
    /// How transient failures of token requests are repeated.
    public var retryPolicy: RetryPolicy
    /// The sentence that tells the user how to sign in again, ending every
    /// ``/Stratus/ServiceError/Code/reauthenticationRequired`` message.
    public var signInHint: String
    /// Where the client logs (debug and trace), never with a secret.
    public var logger: Logger

    /// Creates a client.
    /// - Parameters:
    ///   - provider: The provider profile.
    ///   - http: The HTTP client for token requests.
    ///   - retryPolicy: How transient failures of token requests are repeated.
    ///   - signInHint: How the user signs in again, such as "Run `stratus login dropbox`.";
    ///     a general sentence by default.
    ///   - logger: Where to log.
    public init(
        provider: OAuthProvider,
        http: StratusHTTPClient,
        retryPolicy: RetryPolicy = .standard,
        signInHint: String? = nil,
        logger: Logger = Logger(label: "stratus.oauth", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.provider = provider
        self.http = http
        self.retryPolicy = retryPolicy
        self.signInHint = signInHint ?? "Sign in to \(provider.name) again to give this app access."
        self.logger = logger
    }

    // MARK: Authorization

    /// Starts a sign-in: a fresh `state` and PKCE pair, and the authorization URL carrying them.
    /// - Parameters:
    ///   - redirectURI: Where the provider sends the browser back, such as a
    ///     ``LoopbackRedirectReceiver/redirectURI``.
    ///   - scopes: The scopes to ask for; none means the app's defaults.
    /// - Returns: The URL to open and what ``exchange(code:for:)`` needs later.
    /// - Throws: ``/Stratus/ServiceError`` when no random bytes are available or the provider's
    ///   authorization URL is malformed.
    public func makeAuthorization(redirectURI: URL, scopes: [String] = []) throws -> PendingAuthorization {
        let state = try RandomToken.make()
        let pkce = try PKCE.random()
        var fields: [(name: String, value: String)] = [
            ("response_type", "code"),
            ("client_id", provider.clientID),
            ("redirect_uri", redirectURI.absoluteString),
            ("state", state),
            ("code_challenge", pkce.challenge),
            ("code_challenge_method", pkce.challengeMethod),
        ]
        if !scopes.isEmpty { fields.append(("scope", scopes.joined(separator: " "))) }
        fields += provider.authorizationParameters
        guard let url = FormEncoding.url(provider.authorizeURL, adding: fields) else {
            throw ServiceError(
                .invalidConfiguration,
                "The \(provider.name) authorization URL \(Redaction.url(provider.authorizeURL)) is not valid.")
        }
        logger.debug(
            "Prepared authorization URL", metadata: ["provider": "\(provider.name)", "url": "\(Redaction.url(url))"])
        return PendingAuthorization(url: url, state: state, pkce: pkce, redirectURI: redirectURI, scopes: scopes)
    }

    /// Exchanges an authorization code for tokens.
    /// - Parameters:
    ///   - code: The code from the redirect.
    ///   - pending: The sign-in the code belongs to (its PKCE verifier and redirect URI are sent).
    /// - Returns: The new token, with the refresh token when offline access was granted.
    /// - Throws: ``/Stratus/ServiceError``: `reauthenticationRequired` when the code is refused,
    ///   `invalidConfiguration` when the client credentials are, transient codes when the
    ///   endpoint kept failing.
    public func exchange(code: String, for pending: PendingAuthorization) async throws -> OAuthToken {
        var fields: [(name: String, value: String)] = [
            ("grant_type", TokenGrant.authorizationCode.rawValue),
            ("code", code),
            ("redirect_uri", pending.redirectURI.absoluteString),
            ("code_verifier", pending.codeVerifier),
        ]
        fields += clientFields
        let token = try await requestToken(
            fields,
            grant: .authorizationCode,
            previous: nil,
            requestedScopes: pending.scopes,
            secrets: [code, pending.codeVerifier]
        )
        logger.debug(
            "Signed in",
            metadata: [
                "provider": "\(provider.name)", "token": "\(token)",
            ])
        return token
    }

    /// Obtains a new access token with a token's refresh token.
    ///
    /// The result keeps the old refresh token when the provider sends none, and carries the new
    /// one when the provider rotates it; store it either way.
    /// - Parameter token: The token to refresh.
    /// - Returns: The refreshed token.
    /// - Throws: ``/Stratus/ServiceError``: `reauthenticationRequired` when there is no refresh
    ///   token or the provider answers `invalid_grant` (revoked or expired), other codes as for
    ///   ``exchange(code:for:)``.
    public func refresh(_ token: OAuthToken) async throws -> OAuthToken {
        guard let refreshToken = token.refreshToken else {
            throw ServiceError(
                .reauthenticationRequired,
                "The \(provider.name) sign-in has no refresh token (it did not ask for offline access), so the expired access token cannot be renewed. \(signInHint)"
            )
        }
        let fields: [(name: String, value: String)] =
            [
                ("grant_type", TokenGrant.refreshToken.rawValue),
                ("refresh_token", refreshToken),
            ] + clientFields
        let refreshed = try await requestToken(
            fields,
            grant: .refreshToken,
            previous: token,
            requestedScopes: token.scopes,
            secrets: [refreshToken, token.accessToken]
        )
        logger.debug(
            "Refreshed access token",
            metadata: [
                "provider": "\(provider.name)", "token": "\(refreshed)",
                "rotated": "\(refreshed.refreshToken != token.refreshToken)",
            ])
        return refreshed
    }

    /// Revokes a token at the provider, ending the grant (Dropbox: the access token and its
    /// refresh token; Google: the whole grant).
    ///
    /// A token the provider already considers revoked counts as revoked.
    /// - Parameter token: The token to revoke.
    /// - Throws: ``/Stratus/ServiceError``: `unsupported` when the provider has no revocation,
    ///   `unauthorized` when a bearer revocation's access token is refused (refresh and retry:
    ///   ``CredentialProvider/signOut()`` does), others by status.
    public func revoke(_ token: OAuthToken) async throws {
        let response = try await sendRevocation(of: token, authorization: token.authorizationHeaderValue)
        try checkRevocation(
            response,
            secrets: [token.accessToken] + (token.refreshToken.map { [$0] } ?? [])
                + (provider.clientSecret.map { [$0] } ?? []))
    }

    // MARK: Internals shared with CredentialProvider

    /// Sends the revocation request; `authorization` is used by the bearer style.
    func sendRevocation(of token: OAuthToken, authorization: String) async throws -> StratusHTTPResponse {
        guard let revocation = provider.revocation else {
            throw ServiceError(.unsupported, "\(provider.name) offers no token revocation.")
        }
        var request = StratusHTTPRequest(method: .post, url: revocation.url, headers: ["Accept": "application/json"])
        switch revocation.style {
        case .bearer:
            request.headers.set("Authorization", authorization)
        case .formToken:
            request.headers.set("Content-Type", "application/x-www-form-urlencoded")
            request.body = .bytes(FormEncoding.body([("token", token.refreshToken ?? token.accessToken)]))
        }
        logger.debug("Revoking token", metadata: ["provider": "\(provider.name)", "request": "\(request)"])
        do {
            return try await http.execute(request, into: .memory(limit: 1024 * 1024))
        } catch {
            throw ServiceError.transportFailure(error, action: "The \(provider.name) revocation request")
        }
    }

    /// Turns the revocation answer into success or an error.
    func checkRevocation(_ response: StratusHTTPResponse, secrets: [String]) throws {
        logger.debug("Revocation answered", metadata: ["provider": "\(provider.name)", "status": "\(response.status)"])
        if response.isSuccess { return }
        // RFC 7009 servers (Google) answer invalid_token for a token that is already dead.
        if response.status == 400, TokenEndpointError.parse(response.body)?.error == "invalid_token" { return }
        let providerError = TokenEndpointError.parse(response.body).map {
            Redaction.serverText($0.error, secrets: secrets, limit: 100)
        }
        let code: ServiceError.Code =
            switch response.status {
            case 401: .unauthorized
            case 429: .rateLimited
            case 500...: .server
            default: .invalidResponse
            }
        throw ServiceError(
            code, "\(provider.name) did not revoke the token (HTTP \(response.status)).", httpStatus: response.status,
            providerError: providerError)
    }

    // MARK: Token endpoint

    private var clientFields: [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = [("client_id", provider.clientID)]
        if let secret = provider.clientSecret { fields.append(("client_secret", secret)) }
        return fields
    }

    private func requestToken(
        _ fields: [(name: String, value: String)],
        grant: TokenGrant,
        previous: OAuthToken?,
        requestedScopes: [String],
        secrets: [String]
    ) async throws -> OAuthToken {
        let request = StratusHTTPRequest(
            method: .post,
            url: provider.tokenURL,
            headers: ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"],
            body: .bytes(FormEncoding.body(fields))
        )
        let secrets = secrets + (provider.clientSecret.map { [$0] } ?? [])
        let (provider, http, logger, signInHint) = (self.provider, self.http, self.logger, self.signInHint)
        return try await retryPolicy.run { attempt in
            logger.debug(
                "Token request",
                metadata: [
                    "provider": "\(provider.name)", "grant_type": "\(grant.rawValue)",
                    "endpoint": "\(Redaction.url(provider.tokenURL))", "attempt": "\(attempt)",
                ])
            let issuedAt = Date()
            let response: StratusHTTPResponse
            do {
                response = try await http.execute(request, into: .memory(limit: 1024 * 1024))
            } catch {
                throw ServiceError.transportFailure(error, action: "The \(provider.name) token request")
            }
            logger.trace(
                "Token endpoint answered",
                metadata: [
                    "provider": "\(provider.name)", "status": "\(response.status)", "bytes": "\(response.body.count)",
                ])
            guard response.isSuccess else {
                let error = ServiceError.tokenEndpoint(
                    status: response.status, headers: response.headers, body: response.body,
                    grant: grant, provider: provider.name, signInHint: signInHint, secrets: secrets
                )
                logger.debug(
                    "Token request failed",
                    metadata: [
                        "provider": "\(provider.name)", "status": "\(response.status)", "code": "\(error.code)",
                        "error": "\(error.providerError ?? "none")",
                    ])
                throw error
            }
            return try TokenEndpointAnswer.token(
                from: response.body, issuedAt: issuedAt, previous: previous, requestedScopes: requestedScopes)
        }
    }
}
