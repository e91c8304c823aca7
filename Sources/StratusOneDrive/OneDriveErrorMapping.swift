import Foundation
import Stratus
import StratusAdapterKit
import StratusHTTP

/// Turns a Graph error answer into a ``/Stratus/ServiceError``, keeping Graph's code chain and
/// message (scrubbed) in ``/Stratus/ServiceError/providerError``.
///
/// | HTTP | code anywhere in the `innererror` chain | code |
/// |---|---|---|
/// | 410, 400 | `resyncRequired`, `resyncChangesApplyDifferences`, `resyncChangesUploadDifferences`, `resyncApplyDifferences`, `resyncUploadDifferences` | `invalidChangeToken` |
/// | 400 | anything else | `invalidResponse` (a request Stratus built was refused: a bug) |
/// | 401 | any | `unauthorized` (an expired token is refreshed once before this) |
/// | 403 | `quotaLimitReached` | `quotaExceeded` |
/// | 403 | anything else | `permissionDenied` |
/// | 404 | any | `notFound` |
/// | 409 | any (`nameAlreadyExists`, `conflict`) | `conflict` |
/// | 412 | any | `conflict` |
/// | 413 | any | `payloadTooLarge` |
/// | 423 | any (`resourceLocked`) | `conflict` |
/// | 429 | any | `rateLimited`, with `Retry-After` |
/// | 503 | with `Retry-After` | `rateLimited` (Graph's throttling: the request was refused) |
/// | 507 | any (`quotaLimitReached`, `insufficientStorage`) | `quotaExceeded` |
/// | other 5xx | any | `server` |
/// | other | any | `invalidResponse` |
enum OneDriveErrorMapping {
    /// The resync codes of a delta token Graph no longer accepts; both spellings occur.
    static let resyncCodes = [
        "resyncRequired", "resyncChangesApplyDifferences", "resyncChangesUploadDifferences",
        "resyncApplyDifferences", "resyncUploadDifferences",
    ]

    /// The error for a non-2xx answer.
    /// - Parameters:
    ///   - status: The HTTP status.
    ///   - headers: The answer's header fields.
    ///   - body: The answer's body (an error body, never file content).
    ///   - action: What was asked, such as `GET item`, for the message.
    ///   - secrets: The current token and other secrets, scrubbed from the server's text.
    static func error(status: Int, headers: StratusHTTPHeaders, body: Data, action: String, secrets: [String])
        -> ServiceError
    {
        let parsed = OneDriveErrorBody.parse(body)
        let summary = (parsed?.summary ?? plainText(body)).map { Redaction.serverText($0, secrets: secrets) }
        let detail = summary.map { " (\($0))" } ?? ""
        let retryAfter = headers.retryAfter()
        func make(_ code: ServiceError.Code, _ message: String, retryAfter: Duration? = nil) -> ServiceError {
            ServiceError(code, message, httpStatus: status, providerError: summary, retryAfter: retryAfter)
        }
        if status == 410 || parsed.map({ body in resyncCodes.contains { body.has($0) } }) == true {
            return make(
                .invalidChangeToken,
                "OneDrive no longer accepts this change token\(detail); resync from a full listing.")
        }
        switch status {
        case 400:
            return make(
                .invalidResponse,
                "OneDrive refused \(action) as a bad request\(detail); this is a bug in Stratus, please report it.")
        case 401:
            return make(
                .unauthorized,
                "OneDrive refused the credentials for \(action)\(detail). Sign in to Microsoft again or check the app's scopes."
            )
        case 403 where parsed?.has("quotaLimitReached") == true:
            return make(.quotaExceeded, "The OneDrive has no room for this content (\(action))\(detail).")
        case 403:
            return make(.permissionDenied, "OneDrive does not allow \(action) for this account or app\(detail).")
        case 404:
            return make(.notFound, "OneDrive found nothing for \(action)\(detail).")
        case 409, 412, 423:
            return make(
                .conflict,
                "OneDrive refused \(action) because the item changed or something else is in the way\(detail); nothing was changed."
            )
        case 413:
            return make(.payloadTooLarge, "The content is larger than OneDrive accepts in \(action)\(detail).")
        case 429:
            return make(
                .rateLimited, "OneDrive asks to slow down (\(action))\(detail).", retryAfter: retryAfter ?? .seconds(1))
        case 503 where retryAfter != nil:
            return make(.rateLimited, "OneDrive is busy and asks to wait (\(action))\(detail).", retryAfter: retryAfter)
        case 507:
            return make(.quotaExceeded, "The OneDrive is full (\(action))\(detail); free some space or add storage.")
        case 500...599:
            return make(
                .server, "OneDrive failed to answer \(action) (HTTP \(status))\(detail); try again later.",
                retryAfter: retryAfter)
        default:
            return make(.invalidResponse, "OneDrive answered \(action) with an unexpected HTTP \(status)\(detail).")
        }
    }

    /// The error for a 2xx answer whose body could not be read; the detail is scrubbed.
    static func undecodable(_ action: String, _ detail: String) -> ServiceError {
        ServiceError(
            .invalidResponse,
            "OneDrive's answer to \(action) could not be read: \(Redaction.serverText(detail, secrets: [], limit: 500))."
        )
    }

    /// The start of a body that is not Graph's error JSON, for the message; `nil` when empty.
    private static func plainText(_ body: Data) -> String? {
        guard !body.isEmpty else { return nil }
        let text = String(decoding: body.prefix(300), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }
}
