import Foundation
import Hummingbird
import MockSupport

/// An answer other than success, in one of the shapes Dropbox uses.
struct DropboxFailure: Error {
    /// The answer to send.
    let response: Response

    /// 400 with a plain-text body, as Dropbox answers malformed arguments.
    static func badInput(_ message: String) -> DropboxFailure {
        DropboxFailure(response: .text(message, status: .badRequest))
    }

    /// 401 with an `auth.AuthError` union.
    /// - Parameter error: The union, such as `[".tag": "expired_access_token"]`.
    static func unauthorized(_ error: [String: Any]) -> DropboxFailure {
        DropboxFailure(response: jsonError(error, status: .unauthorized))
    }

    /// 409 with a route error union; `error_summary` is its tag chain.
    /// - Parameter error: The route's error union.
    static func route(_ error: [String: Any]) -> DropboxFailure {
        DropboxFailure(response: jsonError(error, status: .conflict))
    }

    /// 429 with an `auth.RateLimitError`, and its wait in a `Retry-After` header as well.
    /// - Parameters:
    ///   - reason: The `RateLimitReason` tag: `too_many_requests` or `too_many_write_operations`.
    ///   - seconds: The `retry_after` the client should wait.
    static func rateLimited(_ reason: String, retryAfter seconds: Int) -> DropboxFailure {
        let error: [String: Any] = ["reason": [".tag": reason], "retry_after": seconds]
        let body: [String: Any] = ["error_summary": reason + "/...", "error": error]
        return DropboxFailure(
            response: .json(
                text: DropboxJSON.text(body), status: .tooManyRequests, headers: [.retryAfter: String(seconds)]))
    }

    /// 429 `too_many_write_operations`: the namespace has too many writes in flight (see
    /// ``WriteContention``).
    static func tooManyWriteOperations(retryAfter seconds: Int) -> DropboxFailure {
        rateLimited("too_many_write_operations", retryAfter: seconds)
    }

    /// Whether this is a 429 refusal (the request did nothing).
    var isRateLimit: Bool { response.status == .tooManyRequests }

    private static func jsonError(_ error: [String: Any], status: HTTPResponse.Status) -> Response {
        let body: [String: Any] = ["error_summary": summary(of: error), "error": error]
        return .json(text: DropboxJSON.text(body), status: status)
    }

    /// The tag chain of a union joined by `/`, followed by `/...`, as Dropbox writes it.
    static func summary(of error: [String: Any]) -> String {
        var tags: [String] = []
        var current: [String: Any]? = error
        while let union = current, let tag = union[".tag"] as? String {
            tags.append(tag)
            // A union member is nested under its own name; a struct member is inlined, and its
            // `reason` (UploadWriteFailed) carries the next union.
            current = (union[tag] as? [String: Any]) ?? (union["reason"] as? [String: Any])
        }
        return tags.joined(separator: "/") + "/..."
    }
}

/// Builders for the error unions of the files namespace.
enum FilesError {
    /// `LookupError` member with no value, such as `not_found`.
    static func lookup(_ tag: String) -> [String: Any] { [".tag": tag] }

    /// `WriteError.conflict` with a `WriteConflictError` member (`file`, `folder`, `file_ancestor`).
    static func conflict(_ kind: String) -> [String: Any] {
        [".tag": "conflict", "conflict": [".tag": kind]]
    }

    /// A union member whose value is another union, nested under its name.
    static func wrap(_ tag: String, _ inner: [String: Any]) -> [String: Any] {
        [".tag": tag, tag: inner]
    }

    /// `UploadError.path` (`UploadWriteFailed`, a struct, so inlined).
    static func uploadPath(_ reason: [String: Any], sessionID: String) -> [String: Any] {
        [".tag": "path", "reason": reason, "upload_session_id": sessionID]
    }

    /// A void member.
    static func tag(_ tag: String) -> [String: Any] { [".tag": tag] }
}
