import Hummingbird
import MockOAuth
import MockSupport

/// How the Graph mock answers an injected status fault: Graph's error body with the codes
/// Graph gives for each status.
enum GraphFaultAnswers {
    /// The hooks for a ``FaultInjector``.
    static func hooks(authorization: MockAuthorizationServer) -> FaultInjector.ProviderHooks {
        FaultInjector.ProviderHooks(
            errorResponse: { status, retryAfter in response(status: status, retryAfter: retryAfter) },
            expireTokens: { authorization.expireAllAccessTokens() },
            isValidAccessToken: { authorization.validate(accessToken: $0).isValid }
        )
    }

    /// Graph's answer for a status: 429 `activityLimitReached`, 503 `serviceNotAvailable`,
    /// 507 `quotaLimitReached`, 401 `InvalidAuthenticationToken`, 404 `itemNotFound`, 409
    /// `conflict`, 412 `preconditionFailed`, 400 `invalidRequest`, 500 `generalException`,
    /// other statuses `generalException`. `Retry-After` is added by the fault middleware.
    static func response(status: Int, retryAfter: Int?) -> Response {
        let failure: GraphFailure =
            switch status {
            case 429:
                GraphFailure(
                    status: 429, code: "activityLimitReached",
                    message: "The app or user has been throttled.", innerCodes: ["throttledRequest"])
            case 503:
                GraphFailure(status: 503, code: "serviceNotAvailable", message: "The service is not available.")
            case 507: .quotaLimitReached()
            case 401: .invalidToken("Lifetime validation failed, the token is expired.")
            case 404: .itemNotFound("Item not found (injected).")
            case 409: GraphFailure(status: 409, code: "conflict", message: "Conflict (injected).")
            case 412: .preconditionFailed()
            case 400: .invalidRequest("Invalid request (injected).")
            default:
                GraphFailure(status: status, code: "generalException", message: "An unspecified error occurred.")
            }
        return failure.response()
    }
}
