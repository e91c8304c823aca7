import Hummingbird
import MockOAuth
import MockSupport

/// How the Drive mock answers an injected status fault: in Google's error shape, with the
/// reasons Drive gives for each status.
enum DriveFaultAnswers {
    /// The hooks for a ``FaultInjector``.
    static func hooks(authorization: MockAuthorizationServer) -> FaultInjector.ProviderHooks {
        FaultInjector.ProviderHooks(
            errorResponse: { status, retryAfter in response(status: status, retryAfter: retryAfter) },
            expireTokens: { authorization.expireAllAccessTokens() },
            isValidAccessToken: { authorization.validate(accessToken: $0).isValid }
        )
    }

    /// Google's answer for a status: 403 `userRateLimitExceeded`, 429 `rateLimitExceeded`,
    /// 401 `authError`, 404 `notFound`, 400 `badRequest`, 500 `internalError`, other 5xx
    /// `backendError`.
    static func response(status: Int, retryAfter: Int?) -> Response {
        let body: DriveErrorBody =
            switch status {
            case 403: .userRateLimitExceeded()
            case 429: .rateLimitExceeded(code: 429)
            case 401: .invalidCredentials()
            case 404: .fileNotFound("injected")
            case 400: .badRequest("Injected fault.")
            case 500: .internalError()
            default: .backendError(code: status)
            }
        return body.response()
    }
}
