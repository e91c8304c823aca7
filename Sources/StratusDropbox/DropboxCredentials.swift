import Foundation
import Stratus
import StratusHTTP
import StratusOAuth

/// How ``DropboxService`` authorizes its requests: a fixed access token, or a
/// ``StratusOAuth/CredentialProvider`` that refreshes tokens.
///
/// This is the one place the adapter touches `StratusOAuth`. The token never appears in
/// descriptions or errors.
public struct DropboxCredentials: Sendable, CustomStringConvertible {
    private enum Source: Sendable {
        case fixed(String)
        case provider(CredentialProvider)
    }

    private let source: Source

    /// A fixed access token (a short-lived test token, or one issued by a mock server). A
    /// refused token is `unauthorized`; nothing is refreshed.
    /// - Parameter token: The bearer token.
    public static func accessToken(_ token: String) -> DropboxCredentials {
        DropboxCredentials(source: .fixed(token))
    }

    /// Tokens from a credential provider: refreshed ahead of expiry, and once more when Dropbox
    /// answers `expired_access_token` or `invalid_access_token`.
    /// - Parameter provider: A provider for the Dropbox profile.
    public static func provider(_ provider: CredentialProvider) -> DropboxCredentials {
        DropboxCredentials(source: .provider(provider))
    }

    /// `DropboxCredentials(fixed token)` or `DropboxCredentials(provider)`, never the token.
    public var description: String {
        switch source {
        case .fixed: "DropboxCredentials(fixed token)"
        case .provider: "DropboxCredentials(provider)"
        }
    }

    /// Sends a request with an `Authorization` header (unless `authorized` is false, for
    /// `noauth` routes), refreshing and repeating once on a refused token when a provider is in
    /// use.
    /// - Returns: The answer, whatever its status.
    /// - Throws: ``Stratus/ServiceError`` for transport failures and refresh failures.
    func send(
        _ request: HTTPRequest,
        http: HTTPClient,
        into destination: HTTPResponseDestination,
        route: String,
        progress: (@Sendable (HTTPProgress) -> Void)?
    ) async throws -> HTTPResponse {
        @Sendable func execute(_ authorization: String) async throws -> HTTPResponse {
            var request = request
            request.headers.set("Authorization", authorization)
            do {
                return try await http.execute(request, into: destination, progress: progress)
            } catch {
                throw ServiceError.transportFailure(error, action: "The request to \(route)")
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
                throw ServiceError(.unauthorized, "The Dropbox sign-in could not be used for \(route).")
            }
        }
    }
}
