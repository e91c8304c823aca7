import Foundation
import Stratus
import StratusAdapterKit
import StratusHTTP

/// The token endpoint's JSON, which Dropbox and Google both shape after RFC 6749 §5.
///
/// Success: `{"access_token", "token_type", "expires_in", "refresh_token"?, "scope"?}` plus
/// provider extras (Dropbox `account_id`/`uid`, Google `id_token`), which are ignored.
/// Failure: `{"error": "invalid_grant", "error_description": "..."}`.
struct TokenEndpointAnswer: Decodable {
    var accessToken: String
    var tokenType: String?
    var expiresIn: Double?
    var refreshToken: String?
    var scope: String?

    private enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case refreshToken = "refresh_token"
        case scope
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try container.decode(String.self, forKey: .accessToken)
        tokenType = try container.decodeIfPresent(String.self, forKey: .tokenType)
        // Some servers send the lifetime as a string.
        if let seconds = try? container.decodeIfPresent(Double.self, forKey: .expiresIn) {
            expiresIn = seconds
        } else {
            expiresIn = (try? container.decodeIfPresent(String.self, forKey: .expiresIn)).flatMap {
                $0.flatMap(Double.init)
            }
        }
        refreshToken = try container.decodeIfPresent(String.self, forKey: .refreshToken)
        scope = try container.decodeIfPresent(String.self, forKey: .scope)
    }

    /// The longest lifetime believed: ten years (providers give hours).
    static let maximumLifetime: Double = 10 * 365 * 86_400

    /// Parses a successful answer into a token.
    /// - Parameters:
    ///   - body: The JSON body.
    ///   - issuedAt: When the request was sent; the expiry counts from then (rounded down to a
    ///     whole second), so it errs early.
    ///   - previous: The token being refreshed: its refresh token and scopes are kept when the
    ///     answer has none.
    ///   - requestedScopes: The scopes asked for, used when the answer names none.
    /// - Throws: `invalidResponse` when the body is not a token answer, or its `expires_in` is
    ///   not a finite number of seconds from 0 to ``maximumLifetime``.
    static func token(from body: Data, issuedAt: Date, previous: OAuthToken?, requestedScopes: [String]) throws
        -> OAuthToken
    {
        let answer: TokenEndpointAnswer
        do {
            answer = try JSONDecoder().decode(TokenEndpointAnswer.self, from: body)
        } catch {
            // The decoding error might quote the body, which holds tokens: it is not passed on.
            throw ServiceError(.invalidResponse, "The token endpoint answered with something that is not a token.")
        }
        guard !answer.accessToken.isEmpty else {
            throw ServiceError(.invalidResponse, "The token endpoint answered with an empty access token.")
        }
        // A lifetime the server chose: `"nan"`, `"inf"`, a negative or an absurd number cannot
        // become an expiry date (or be written to the token file), so the answer is refused.
        if let lifetime = answer.expiresIn, !(lifetime.isFinite && lifetime >= 0 && lifetime <= maximumLifetime) {
            throw ServiceError(
                .invalidResponse,
                "The token endpoint gave expires_in \(lifetime), which is not a number of seconds between 0 and \(Int(maximumLifetime)); the token was not used."
            )
        }
        let scopes =
            answer.scope.map { $0.split(separator: " ").map(String.init) }
            ?? previous?.scopes ?? requestedScopes
        return OAuthToken(
            accessToken: answer.accessToken,
            refreshToken: answer.refreshToken ?? previous?.refreshToken,
            // Whole seconds, so the expiry survives the token file's JSON unchanged.
            expiresAt: answer.expiresIn.map {
                Date(timeIntervalSince1970: (issuedAt.timeIntervalSince1970 + $0).rounded(.down))
            },
            scopes: scopes,
            tokenType: answer.tokenType ?? "bearer"
        )
    }
}

/// An error answer of the token or revocation endpoint.
struct TokenEndpointError: Decodable {
    var error: String
    var errorDescription: String?

    private enum CodingKeys: String, CodingKey {
        case error
        case errorDescription = "error_description"
    }

    /// The RFC 6749 error code of a body, if it has one.
    static func parse(_ body: Data) -> TokenEndpointError? {
        try? JSONDecoder().decode(TokenEndpointError.self, from: body)
    }
}

/// What a token request was for, which changes what an error means to the user.
enum TokenGrant: String {
    case authorizationCode = "authorization_code"
    case refreshToken = "refresh_token"
}

extension ServiceError {
    /// The error for a failed token request.
    /// - Parameters:
    ///   - status: The answer's status.
    ///   - headers: The answer's header fields.
    ///   - body: The answer's body.
    ///   - grant: What was asked for.
    ///   - provider: The provider's name.
    ///   - signInHint: How the user signs in again.
    ///   - secrets: Values that must not appear in the message, whatever the server echoed.
    static func tokenEndpoint(
        status: Int,
        headers: StratusHTTPHeaders,
        body: Data,
        grant: TokenGrant,
        provider: String,
        signInHint: String,
        secrets: [String]
    ) -> ServiceError {
        let answer = TokenEndpointError.parse(body)
        // Both are the server's words, which may echo the request (refresh token, client secret).
        let code = answer.map { Redaction.serverText($0.error, secrets: secrets, limit: 100) }
        // The provider's own words, without a final full stop (the message adds its own).
        let detail =
            answer?.errorDescription.map {
                ": "
                    + Redaction.serverText($0, secrets: secrets).trimmingCharacters(
                        in: CharacterSet(charactersIn: ". "))
            } ?? ""
        switch code {
        case "invalid_grant":
            let message =
                switch grant {
                case .refreshToken:
                    "The \(provider) sign-in is no longer valid: the refresh token was revoked or has expired\(detail). \(signInHint)"
                case .authorizationCode:
                    "\(provider) refused the authorization code (it expired, was already used, or does not match this sign-in)\(detail). \(signInHint)"
                }
            return ServiceError(.reauthenticationRequired, message, httpStatus: status, providerError: "invalid_grant")
        case "invalid_client", "unauthorized_client":
            return ServiceError(
                .invalidConfiguration,
                "\(provider) refused the app's client credentials\(detail); check the client ID and secret in the configuration.",
                httpStatus: status,
                providerError: code
            )
        case "temporarily_unavailable", "server_error", "internal_failure":
            return ServiceError(
                .server, "\(provider)'s token endpoint failed\(detail).", httpStatus: status, providerError: code)
        default:
            break
        }
        if status == 429 {
            return ServiceError(
                .rateLimited,
                "\(provider)'s token endpoint asked to slow down.",
                httpStatus: status,
                providerError: code,
                retryAfter: headers.retryAfter()
            )
        }
        if status == 408 {
            return ServiceError(
                .timeout, "\(provider)'s token endpoint timed out.", httpStatus: status, providerError: code)
        }
        if status >= 500 {
            return ServiceError(
                .server, "\(provider)'s token endpoint failed with HTTP \(status).", httpStatus: status,
                providerError: code)
        }
        if let code {
            return ServiceError(
                .unauthorized, "\(provider) refused the token request (\(code))\(detail).", httpStatus: status,
                providerError: code)
        }
        return ServiceError(
            .invalidResponse, "\(provider)'s token endpoint answered HTTP \(status) without an OAuth error.",
            httpStatus: status)
    }
}
