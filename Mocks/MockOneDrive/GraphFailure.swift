import Foundation
import Hummingbird
import MockSupport

/// A Microsoft Graph error: the status and the `error` object Graph answers with, its `code`
/// and `message`, and a chain of more specific codes in nested `innerError` objects, the
/// innermost carrying `date` and `request-id` as Graph's do:
///
/// ```json
/// {"error": {"code": "resyncRequired", "message": "...",
///            "innerError": {"code": "resyncChangesApplyDifferences",
///                           "date": "2026-11-27T05:40:00", "request-id": "..."}}}
/// ```
struct GraphFailure: Error {
    /// The HTTP status.
    var status: Int
    /// The top-level `code`, such as `itemNotFound`.
    var code: String
    /// The `message`.
    var message: String
    /// The more specific codes, outermost first.
    var innerCodes: [String] = []
    /// More header fields (`Retry-After`, `Location`).
    var headers: HTTPFields = [:]

    /// The answer.
    func response() -> Response {
        var inner: [String: Any] = [
            "date": UTCTimeText.make(unixSeconds: Int64(Date().timeIntervalSince1970)),
            "request-id": UUID().uuidString.lowercased(),
            "client-request-id": UUID().uuidString.lowercased(),
        ]
        for code in innerCodes.reversed() {
            inner =
                code == innerCodes.last ? inner.merging(["code": code]) { $1 } : ["code": code, "innerError": inner]
        }
        let body: [String: Any] = ["error": ["code": code, "message": message, "innerError": inner]]
        return Response.json(text: SortedJSONText.make(body) ?? "{}", status: .init(code: status), headers: headers)
    }

    /// Runs a route, turning a ``GraphFailure``, or an `HTTPError` from reading the request,
    /// into Graph's error shape.
    static func answer(_ route: () async throws -> Response) async throws -> Response {
        do {
            return try await route()
        } catch let failure as GraphFailure {
            return failure.response()
        } catch let error as HTTPError {
            let status = Int(error.status.code)
            let code = status == 413 ? "requestTooLarge" : "invalidRequest"
            return GraphFailure(status: status, code: code, message: error.body ?? error.status.reasonPhrase).response()
        }
    }

    // MARK: The failures the routes use

    /// 404 `itemNotFound`.
    static func itemNotFound(_ what: String = "The resource could not be found.") -> GraphFailure {
        GraphFailure(status: 404, code: "itemNotFound", message: what)
    }

    /// 400 `invalidRequest`.
    static func invalidRequest(_ message: String) -> GraphFailure {
        GraphFailure(status: 400, code: "invalidRequest", message: message)
    }

    /// 409 `nameAlreadyExists`.
    static func nameAlreadyExists(_ name: String) -> GraphFailure {
        GraphFailure(
            status: 409, code: "nameAlreadyExists",
            message: "The specified item name already exists. Name: \(name)")
    }

    /// 412 `preconditionFailed`.
    static func preconditionFailed() -> GraphFailure {
        GraphFailure(
            status: 412, code: "preconditionFailed", message: "The resource has changed since the caller last read it.")
    }

    /// 401 `InvalidAuthenticationToken`, as Graph answers a missing, expired or unknown token.
    static func invalidToken(_ message: String) -> GraphFailure {
        var failure = GraphFailure(status: 401, code: "InvalidAuthenticationToken", message: message)
        failure.headers[.wwwAuthenticate] =
            "Bearer realm=\"\", authorization_uri=\"https://login.microsoftonline.com/common/oauth2/authorize\""
        return failure
    }

    /// 401 `unauthenticated`: an upload or download URL (pre-authenticated) that was sent an
    /// `Authorization` header.
    static func authorizationNotAllowed() -> GraphFailure {
        GraphFailure(
            status: 401, code: "unauthenticated",
            message: "This URL is pre-authenticated: send no Authorization header to it.")
    }

    /// 410 `resyncRequired`: a delta token that is no longer valid. The inner code says what
    /// the client should do (`resyncChangesApplyDifferences`: replace local items with the
    /// server's, keep local changes it does not know of).
    static func resyncRequired(location: String?) -> GraphFailure {
        var failure = GraphFailure(
            status: 410, code: "resyncRequired",
            message: "Resync required. Replace any local items with the server's version (including deletes) "
                + "if you're sure that the service was up to date with your local changes when you last sync'd.",
            innerCodes: ["resyncChangesApplyDifferences"])
        if let location { failure.headers[.location] = location }
        return failure
    }

    /// 507 `quotaLimitReached`.
    static func quotaLimitReached() -> GraphFailure {
        GraphFailure(
            status: 507, code: "quotaLimitReached", message: "Insufficient Space Available",
            innerCodes: ["serviceReadOnly"])
    }
}
