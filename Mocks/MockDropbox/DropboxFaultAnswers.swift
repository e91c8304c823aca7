import Hummingbird
import MockOAuth
import MockSupport

/// How the Dropbox mock answers an injected status fault: in the shapes Dropbox itself uses.
enum DropboxFaultAnswers {
    /// The hooks for a ``FaultInjector``.
    static func hooks(authorization: MockAuthorizationServer) -> FaultInjector.ProviderHooks {
        FaultInjector.ProviderHooks(
            errorResponse: { status, retryAfter in response(status: status, retryAfter: retryAfter) },
            expireTokens: { authorization.expireAllAccessTokens() },
            isValidAccessToken: { authorization.validate(accessToken: $0).isValid }
        )
    }

    /// Dropbox's answer for a status:
    /// - 429: JSON `RateLimitError` with `too_many_requests` and `retry_after` (1 by default);
    /// - 401: JSON `AuthError` `expired_access_token`;
    /// - 400: a plain-text message;
    /// - 409: a route error naming an internal failure (`other`);
    /// - anything else (5xx above all): a plain-text body, as Dropbox's front ends send.
    static func response(status: Int, retryAfter: Int?) -> Response {
        let code = HTTPResponse.Status(code: status)
        switch status {
        case 429:
            return DropboxFailure.rateLimited("too_many_requests", retryAfter: retryAfter ?? 1).response
        case 401:
            return DropboxFailure.unauthorized(FilesError.tag("expired_access_token")).response
        case 409:
            return DropboxFailure.route(FilesError.tag("other")).response
        case 400:
            return .text("Error in call: injected fault (bad request).", status: code)
        default:
            return .text("Error: injected fault (status \(status)).", status: code)
        }
    }
}
