import Hummingbird
import MockSupport

/// An error answer of the Depot protocol: a status and a JSON body `{"error", "message"}`.
struct DepotFailure: Error {
    /// The status.
    var status: HTTPResponse.Status
    /// The protocol's error code, such as `not_found`.
    var code: String
    /// A sentence for people.
    var message: String
    /// Extra header fields, such as `Retry-After`.
    var headers: HTTPFields = [:]

    /// The answer on the wire.
    var response: Response {
        Response.json(["error": code, "message": message], status: status, headers: headers)
    }

    static func notFound(_ path: DepotPath) -> DepotFailure {
        DepotFailure(status: .notFound, code: "not_found", message: "Nothing is at \(path.text).")
    }

    static func preconditionFailed(_ message: String) -> DepotFailure {
        DepotFailure(status: .preconditionFailed, code: "precondition_failed", message: message)
    }

    static func pathConflict(_ message: String) -> DepotFailure {
        DepotFailure(status: .conflict, code: "path_conflict", message: message)
    }

    static func badRequest(_ message: String, code: String = "bad_request") -> DepotFailure {
        DepotFailure(status: .badRequest, code: code, message: message)
    }

    /// The answer for a status a fault rule injects, in the protocol's words: 429 and 503 carry
    /// `Retry-After` (1 second unless the rule says otherwise).
    static func injected(status: Int, retryAfter: Int?) -> Response {
        let code: String =
            switch status {
            case 401: "unauthorized"
            case 429: "too_many_requests"
            case 503: "unavailable"
            case 500...: "server_error"
            default: "injected"
            }
        var failure = DepotFailure(
            status: .init(code: status), code: code, message: "Injected fault: status \(status).")
        if status == 429 || status == 503 || retryAfter != nil {
            failure.headers[.retryAfter] = String(retryAfter ?? 1)
        }
        return failure.response
    }
}
