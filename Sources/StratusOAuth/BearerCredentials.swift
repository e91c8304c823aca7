public import Foundation
import Stratus
import StratusAdapterKit
public import StratusHTTP

/// How an adapter authorizes its requests with a bearer token: a fixed access token, or a
/// ``CredentialProvider`` that refreshes tokens.
///
/// `DropboxCredentials` and `DriveCredentials` are this type. The token never appears in
/// descriptions or errors.
public struct BearerCredentials: Sendable, CustomStringConvertible {
    private enum Source: Sendable {
        case fixed(String)
        case provider(CredentialProvider)
    }

    private let source: Source

    /// A fixed access token (a short-lived test token, or one issued by a mock server). A
    /// refused token is `unauthorized`; nothing is refreshed.
    /// - Parameter token: The bearer token.
    public static func accessToken(_ token: String) -> BearerCredentials {
        BearerCredentials(source: .fixed(token))
    }

    /// Tokens from a credential provider: refreshed ahead of expiry, and once more when the
    /// service refuses a token by its provider's ``OAuthProvider/tokenRejection`` rule (Dropbox:
    /// `expired_access_token` or `invalid_access_token`; Google: 401 `authError`). A revoked
    /// sign-in is `reauthenticationRequired`.
    /// - Parameter provider: A provider for the service's OAuth profile.
    public static func provider(_ provider: CredentialProvider) -> BearerCredentials {
        BearerCredentials(source: .provider(provider))
    }

    /// `BearerCredentials(fixed token)` or `BearerCredentials(provider)`, never the token.
    public var description: String {
        switch source {
        case .fixed: "BearerCredentials(fixed token)"
        case .provider: "BearerCredentials(provider)"
        }
    }

    /// The secrets these credentials hold now (the token; with a provider, its refresh token and
    /// client secret too), for ``/StratusHTTP/Redaction/serverText(_:secrets:limit:)``: pass them
    /// with every error body an adapter quotes.
    /// - Returns: The secrets, never to be shown.
    public func knownSecrets() async -> [String] {
        switch source {
        case .fixed(let token): [token]
        case .provider(let provider): await provider.knownSecrets
        }
    }

    /// Sends a request with an `Authorization` header, refreshing and repeating once on a
    /// refused token when a provider is in use: how an adapter sends every request of a
    /// bearer-token service. It sends once otherwise; wrap it in
    /// `RetryPolicy.run(_:_:)` (StratusAdapterKit) for retries. `makeRequest` is called for each attempt, so a
    /// streamed body is made afresh. The token goes only to the origins (scheme, host and port)
    /// of the service's configured URLs: a request for any other origin is not sent.
    /// - Parameters:
    ///   - makeRequest: Makes the request, without its `Authorization` header.
    ///   - origins: The configured URLs whose origins may receive the token.
    ///   - http: The client to send it with.
    ///   - destination: Where the answer's body goes.
    ///   - action: What is being done, for messages, such as "The request to files/upload".
    ///   - progress: The HTTP progress callback, if any.
    /// - Returns: The answer, whatever its status.
    /// - Throws: ``/Stratus/ServiceError`` for transport failures and refresh failures;
    ///   `invalidResponse` for a request to another origin (only a server can have named it).
    public func send(
        _ makeRequest: @Sendable () throws -> StratusHTTPRequest,
        origins: [URL],
        http: StratusHTTPClient,
        into destination: HTTPResponseDestination,
        action: String,
        progress: (@Sendable (HTTPProgress) -> Void)?
    ) async throws -> StratusHTTPResponse {
        @Sendable func execute(_ authorization: String) async throws -> StratusHTTPResponse {
            var request = try makeRequest()
            guard origins.contains(where: { URLOrigin.same($0, request.url) }) else {
                throw ServiceError(
                    .invalidResponse,
                    "\(action) was not sent: \(URLOrigin(request.url)?.description ?? "its URL") is not the service's configured origin, and credentials go nowhere else."
                )
            }
            request.headers.set("Authorization", authorization)
            do {
                return try await http.execute(request, into: destination, progress: progress)
            } catch {
                throw ServiceError.transportFailure(error, action: action)
            }
        }
        switch source {
        case .fixed(let token):
            return try await execute("Bearer \(token)")
        case .provider(let provider):
            let rule = provider.client.provider.tokenRejection
            do {
                return try await provider.perform({ try await execute($0) }, isTokenRejected: { rule.matches($0) })
            } catch let error as ServiceError {
                throw error
            } catch {
                throw ServiceError(
                    .unauthorized,
                    "The \(provider.client.provider.name) sign-in could not be used: \(action) was not sent.")
            }
        }
    }
}
