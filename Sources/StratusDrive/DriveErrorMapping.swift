import Foundation
import Stratus
import StratusAdapterKit
import StratusHTTP

/// Turns a Drive error answer into a ``/Stratus/ServiceError``, keeping Google's reason and
/// message in ``/Stratus/ServiceError/providerError``.
///
/// | HTTP | reason | code |
/// |---|---|---|
/// | 400 | `invalid`, `badRequest`, ... | `invalidResponse` (a request Stratus built was refused: a Stratus bug) |
/// | 401 | `authError` | `unauthorized` (an expired token is refreshed once before this) |
/// | 403 | `rateLimitExceeded`, `userRateLimitExceeded` | `rateLimited` |
/// | 403 | `storageQuotaExceeded`, `dailyLimitExceeded` | `quotaExceeded` |
/// | 403 | anything else | `permissionDenied` |
/// | 404 | `notFound` | `notFound` |
/// | 409, 412 | any | `conflict` |
/// | 413 | any | `payloadTooLarge` |
/// | 429 | any | `rateLimited`, with `Retry-After` |
/// | 5xx | any | `server` |
/// | other | any | `invalidResponse` |
enum DriveErrorMapping {
    /// The error for a non-2xx answer.
    /// - Parameters:
    ///   - status: The HTTP status.
    ///   - headers: The answer's header fields.
    ///   - body: The answer's body (an error body, never file content).
    ///   - action: What was asked, such as `files.get`, for the message.
    ///   - secrets: The current token and other secrets, scrubbed from the server's text.
    static func error(status: Int, headers: StratusHTTPHeaders, body: Data, action: String, secrets: [String])
        -> ServiceError
    {
        let parsed = DriveErrorBody.parse(body)
        let summary = (parsed?.summary ?? plainText(body)).map { Redaction.serverText($0, secrets: secrets) }
        let detail = summary.map { " (\($0))" } ?? ""
        let retryAfter = headers.retryAfter()
        switch status {
        case 400:
            return ServiceError(
                .invalidResponse,
                "Drive refused \(action) as a bad request\(detail); this is a bug in Stratus, please report it.",
                httpStatus: status, providerError: summary
            )
        case 401:
            return ServiceError(
                .unauthorized,
                "Drive refused the credentials for \(action)\(detail). Sign in to Google again or check the app's scopes.",
                httpStatus: status, providerError: summary
            )
        case 403:
            if let parsed, parsed.has("rateLimitExceeded") || parsed.has("userRateLimitExceeded") {
                return ServiceError(
                    .rateLimited, "Drive asks to slow down (\(action))\(detail).",
                    httpStatus: status, providerError: summary, retryAfter: retryAfter ?? .seconds(1)
                )
            }
            if let parsed, parsed.has("storageQuotaExceeded") {
                return ServiceError(
                    .quotaExceeded, "The Drive account has no room for this content (\(action))\(detail).",
                    httpStatus: status, providerError: summary)
            }
            if let parsed, parsed.has("dailyLimitExceeded") {
                return ServiceError(
                    .quotaExceeded,
                    "The app's daily Drive API quota is used up (\(action))\(detail); try again tomorrow or raise the quota.",
                    httpStatus: status, providerError: summary)
            }
            return ServiceError(
                .permissionDenied, "Drive does not allow \(action) for this account or app\(detail).",
                httpStatus: status, providerError: summary)
        case 404:
            return ServiceError(
                .notFound, "Drive found nothing for \(action)\(detail).", httpStatus: status, providerError: summary)
        case 409, 412:
            return ServiceError(
                .conflict,
                "Drive refused \(action) because the file changed or something else is in the way\(detail); nothing was changed.",
                httpStatus: status, providerError: summary)
        case 413:
            return ServiceError(
                .payloadTooLarge, "The content is larger than Drive accepts in this request (\(action))\(detail).",
                httpStatus: status, providerError: summary)
        case 429:
            return ServiceError(
                .rateLimited, "Drive asks to slow down (\(action))\(detail).",
                httpStatus: status, providerError: summary, retryAfter: retryAfter ?? .seconds(1)
            )
        case 500...599:
            return ServiceError(
                .server, "Drive failed to answer \(action) (HTTP \(status))\(detail); try again later.",
                httpStatus: status, providerError: summary, retryAfter: retryAfter)
        default:
            return ServiceError(
                .invalidResponse, "Drive answered \(action) with an unexpected HTTP \(status)\(detail).",
                httpStatus: status, providerError: summary)
        }
    }

    /// The error for a 2xx answer whose body or header could not be read.
    /// The detail, which may quote the answer, is scrubbed.
    static func undecodable(_ action: String, _ detail: String) -> ServiceError {
        ServiceError(
            .invalidResponse,
            "Drive's answer to \(action) could not be read: \(Redaction.serverText(detail, secrets: [], limit: 500)).")
    }

    /// The start of a body that is not Google's error JSON, for the message; `nil` when empty.
    private static func plainText(_ body: Data) -> String? {
        guard !body.isEmpty else { return nil }
        let text = String(decoding: body.prefix(300), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }
}
