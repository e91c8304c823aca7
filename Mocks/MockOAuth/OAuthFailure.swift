import Hummingbird
import MockSupport

/// Why the token endpoint refused a request; rendered as the provider's error JSON,
/// `{"error": "...", "error_description": "..."}`.
enum OAuthFailure: Error, Sendable, Equatable {
    case wrongContentType(String?)
    case malformedForm
    case parameterMissing(String)
    case parameterRepeated(String)
    case grantTypeMissing
    case grantTypeUnsupported(String)
    case clientIDMissing
    case clientUnknown
    case clientSecretWrong
    case clientSecretMissing
    case clientSecretForPublicClient
    case malformedBasicCredentials
    case conflictingCredentials
    case codeUnknown
    case codeReused
    case codeExpired
    case codeForAnotherClient
    case redirectMismatch
    case verifierMissing
    case verifierMalformed
    case verifierMismatch
    case verifierWithoutChallenge
    case refreshTokenInvalid
    case refreshTokenForAnotherClient
    case scopeNotGranted(String)

    /// The RFC 6749 error code.
    var code: String {
        switch self {
        case .wrongContentType, .malformedForm, .parameterMissing, .parameterRepeated, .grantTypeMissing,
            .clientIDMissing,
            .conflictingCredentials:
            "invalid_request"
        case .grantTypeUnsupported:
            "unsupported_grant_type"
        case .clientUnknown, .clientSecretWrong, .clientSecretMissing, .clientSecretForPublicClient,
            .malformedBasicCredentials:
            "invalid_client"
        case .codeUnknown, .codeReused, .codeExpired, .codeForAnotherClient, .redirectMismatch,
            .verifierMissing, .verifierMalformed, .verifierMismatch, .verifierWithoutChallenge,
            .refreshTokenInvalid, .refreshTokenForAnotherClient:
            "invalid_grant"
        case .scopeNotGranted:
            "invalid_scope"
        }
    }

    /// The status: 400, except that Google answers `invalid_client` with 401.
    func status(for flavor: MockAuthorizationServer.Flavor) -> HTTPResponse.Status {
        flavor == .google && code == "invalid_client" ? .unauthorized : .badRequest
    }

    /// The `error_description`, worded like the provider's where the mock knows its wording.
    func description(for flavor: MockAuthorizationServer.Flavor) -> String {
        let google = flavor == .google
        switch self {
        case .wrongContentType(let type):
            return "The body must be application/x-www-form-urlencoded, not \(type ?? "missing")."
        case .malformedForm:
            return "The body is not valid application/x-www-form-urlencoded text."
        case .parameterMissing(let name):
            return google ? "Missing required parameter: \(name)" : "No \(name) given."
        case .parameterRepeated(let name):
            return "The parameter \(name) was given more than once."
        case .grantTypeMissing:
            return google ? "Missing required parameter: grant_type" : "No grant_type given."
        case .grantTypeUnsupported(let type):
            return google ? "Invalid grant_type: \(type)" : "\"\(type)\" is not a supported grant_type."
        case .clientIDMissing:
            return google
                ? "Could not determine client ID from request." : "No auth function available for given request"
        case .clientUnknown:
            return google ? "The OAuth client was not found." : "Invalid client_id or client_secret"
        case .clientSecretWrong:
            return google ? "Unauthorized" : "Invalid client_id or client_secret"
        case .clientSecretMissing:
            return google ? "client_secret is missing." : "No client_secret given, and the grant does not use PKCE."
        case .clientSecretForPublicClient:
            return "This client has no secret; it is a public client that uses PKCE."
        case .malformedBasicCredentials:
            return "The HTTP Basic credentials are malformed."
        case .conflictingCredentials:
            return "Client credentials were given both in the Authorization header and in the body."
        case .codeUnknown:
            return google ? "Malformed auth code." : "code doesn't exist or has expired"
        case .codeReused:
            return google ? "Bad Request" : "code has already been used"
        case .codeExpired:
            return google ? "Bad Request" : "code doesn't exist or has expired"
        case .codeForAnotherClient:
            return google ? "Bad Request" : "code was issued to a different client"
        case .redirectMismatch:
            return "redirect_uri mismatch"
        case .verifierMissing:
            return google
                ? "Missing code verifier." : "code_verifier is required for a code obtained with a code_challenge"
        case .verifierMalformed:
            return "code_verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~"
        case .verifierMismatch:
            return google ? "Invalid code verifier." : "invalid code verifier"
        case .verifierWithoutChallenge:
            return "code_verifier given, but the authorization had no code_challenge"
        case .refreshTokenInvalid, .refreshTokenForAnotherClient:
            return google ? "Token has been expired or revoked." : "refresh token is invalid or revoked"
        case .scopeNotGranted(let scope):
            return "The scope \(scope) was not granted to this token."
        }
    }

    /// The error as the provider answers it: JSON with `Content-Type: application/json`.
    func response(for flavor: MockAuthorizationServer.Flavor) -> Response {
        Response.json(
            OAuthErrorBody(error: code, errorDescription: description(for: flavor)),
            status: status(for: flavor)
        )
    }
}

/// `{"error": "...", "error_description": "..."}`
struct OAuthErrorBody: Encodable {
    var error: String
    var errorDescription: String

    enum CodingKeys: String, CodingKey {
        case error
        case errorDescription = "error_description"
    }
}
