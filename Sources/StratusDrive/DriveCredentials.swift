import Foundation
import Stratus
import StratusHTTP
import StratusOAuth

/// How ``DriveService`` authorizes its requests: a fixed access token, or a
/// ``StratusOAuth/CredentialProvider`` for the Google profile that refreshes tokens.
///
/// The token never appears in descriptions or errors.
public struct DriveCredentials: Sendable, CustomStringConvertible {
    private enum Source: Sendable {
        case fixed(String)
        case provider(CredentialProvider)
    }

    private let source: Source

    /// A fixed access token (a short-lived test token, or one issued by a mock server). A
    /// refused token is `unauthorized`; nothing is refreshed.
    /// - Parameter token: The bearer token.
    public static func accessToken(_ token: String) -> DriveCredentials {
        DriveCredentials(source: .fixed(token))
    }

    /// Tokens from a credential provider: refreshed ahead of expiry, and once more when Drive
    /// answers 401 `authError`; a revoked sign-in is `reauthenticationRequired`.
    /// - Parameter provider: A provider for the Google profile.
    public static func provider(_ provider: CredentialProvider) -> DriveCredentials {
        DriveCredentials(source: .provider(provider))
    }

    /// `DriveCredentials(fixed token)` or `DriveCredentials(provider)`, never the token.
    public var description: String {
        switch source {
        case .fixed: "DriveCredentials(fixed token)"
        case .provider: "DriveCredentials(provider)"
        }
    }

    /// Sends a request with an `Authorization` header, refreshing and repeating once on a
    /// refused token when a provider is in use. `makeRequest` is called for each attempt, so a
    /// streamed body is made afresh.
    /// - Returns: The answer, whatever its status.
    /// - Throws: ``Stratus/ServiceError`` for transport failures and refresh failures.
    func send(
        _ makeRequest: @Sendable () throws -> HTTPRequest,
        http: HTTPClient,
        into destination: HTTPResponseDestination,
        action: String,
        progress: (@Sendable (HTTPProgress) -> Void)?
    ) async throws -> HTTPResponse {
        @Sendable func execute(_ authorization: String) async throws -> HTTPResponse {
            var request = try makeRequest()
            request.headers.set("Authorization", authorization)
            do {
                return try await http.execute(request, into: destination, progress: progress)
            } catch {
                throw ServiceError.transportFailure(error, action: "The Drive request \(action)")
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
                throw ServiceError(.unauthorized, "The Google sign-in could not be used for \(action).")
            }
        }
    }
}
