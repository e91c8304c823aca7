import Foundation
import Stratus
import StratusAdapterKit
import StratusHTTP

/// Turns a Dropbox error answer into a ``/Stratus/ServiceError``.
///
/// | HTTP | body | code |
/// |---|---|---|
/// | 400 | plain text | `invalidResponse` (a request Stratus built was refused: a Stratus bug); `invalidChangeToken` for a refused cursor of `list_folder/continue` or `list_folder/longpoll` |
/// | 401 | `AuthError` | `unauthorized` (expired/invalid tokens are refreshed once before this) |
/// | 403 | `AccessError` | `permissionDenied` |
/// | 409 | route union | by tag, see ``code(for:)`` |
/// | 429 | `RateLimitError` | `rateLimited`, with `retry_after` or `Retry-After` |
/// | 5xx | any | `server` |
/// | other | any | `invalidResponse` |
enum DropboxErrorMapping {
    /// The error for a non-2xx answer of a route.
    /// - Parameters:
    ///   - status: The HTTP status.
    ///   - headers: The answer's header fields.
    ///   - body: The answer's body (an error body, never file content).
    ///   - route: The route, such as `files/upload`, for the message.
    ///   - secrets: The current token and other secrets, scrubbed from the server's text (a 400
    ///     body may echo the request's headers).
    static func error(status: Int, headers: StratusHTTPHeaders, body: Data, route: String, secrets: [String])
        -> ServiceError
    {
        let parsed = StoneErrorBody.parse(body)
        let summary = parsed?.summary.map { Redaction.serverText($0, secrets: secrets) }
        switch status {
        case 400:
            let text = Redaction.serverText(String(decoding: body.prefix(500), as: UTF8.self), secrets: secrets)
            if cursorRoutes.contains(route), text.lowercased().contains("cursor") {
                return ServiceError(
                    .invalidChangeToken,
                    "Dropbox does not accept the cursor of this change token (\(route)); resync from a full listing.",
                    httpStatus: status,
                    providerError: text
                )
            }
            return ServiceError(
                .invalidResponse,
                "Dropbox refused the request to \(route) as bad input; this is a bug in Stratus, please report it: \(text)",
                httpStatus: status,
                providerError: text
            )
        case 401:
            return ServiceError(
                .unauthorized,
                "Dropbox refused the credentials for \(route)\(summary.map { " (\($0))" } ?? ""). Sign in to Dropbox again or check the app's permissions.",
                httpStatus: status,
                providerError: summary
            )
        case 403:
            return ServiceError(
                .permissionDenied,
                "Dropbox does not allow \(route) for this account or app\(summary.map { " (\($0))" } ?? "").",
                httpStatus: status,
                providerError: summary
            )
        case 409:
            guard let parsed, !parsed.tags.isEmpty else {
                return ServiceError(
                    .invalidResponse,
                    "Dropbox answered \(route) with HTTP 409 and an error body that could not be read.",
                    httpStatus: status)
            }
            let code = code(for: parsed)
            let retryAfter: Duration? = code == .rateLimited ? .seconds(parsed.retryAfterSeconds ?? 1) : nil
            let chain = Redaction.serverText(parsed.tags.joined(separator: "/"), secrets: secrets)
            return ServiceError(
                code,
                message(for: code, route: route, chain: chain),
                httpStatus: status,
                providerError: summary ?? chain,
                retryAfter: retryAfter
            )
        case 429:
            let retryAfter =
                parsed?.retryAfterSeconds.map { Duration.seconds(max(0, $0)) } ?? headers.retryAfter() ?? .seconds(1)
            let seconds = retryAfter.components.seconds
            return ServiceError(
                .rateLimited,
                "Dropbox asks to slow down (\(route)); try again in \(seconds) s.",
                httpStatus: status,
                providerError: summary,
                retryAfter: retryAfter
            )
        case 500...599:
            return ServiceError(
                .server, "Dropbox failed to answer \(route) (HTTP \(status)); try again later.", httpStatus: status,
                providerError: summary)
        default:
            return ServiceError(
                .invalidResponse, "Dropbox answered \(route) with an unexpected HTTP \(status).", httpStatus: status,
                providerError: summary)
        }
    }

    /// The routes that take a change token's cursor: a 400 about the cursor there means the
    /// token is not one Dropbox accepts (`invalidChangeToken`), not a bug in a request.
    static let cursorRoutes: Set<String> = ["files/list_folder/continue", "files/list_folder/longpoll"]

    /// The code for an endpoint error (HTTP 409), from its tag chain.
    ///
    /// `not_found`, `not_file`, `not_folder` → `notFound`; `conflict`, `file_ancestor` →
    /// `conflict`; `insufficient_space` → `quotaExceeded`; `malformed_path`, `disallowed_name` →
    /// `invalidPath`; `payload_too_large`, `too_large` → `payloadTooLarge`;
    /// `content_hash_mismatch` → `integrityMismatch`; `reset` → `invalidChangeToken`;
    /// `too_many_write_operations` → `rateLimited`; `no_write_permission`, `restricted_content`,
    /// `team_folder` → `permissionDenied`; `invalid_revision` → `notFound`; anything else →
    /// `server` with the summary kept. (`incorrect_offset` is handled by the upload session
    /// before mapping.)
    static func code(for error: StoneErrorBody) -> ServiceError.Code {
        let tags = error.tags
        func has(_ tag: String) -> Bool { tags.contains(tag) }
        if has("reset") { return .invalidChangeToken }
        if has("too_many_write_operations") { return .rateLimited }
        if has("content_hash_mismatch") { return .integrityMismatch }
        if has("payload_too_large") || has("too_large") { return .payloadTooLarge }
        if has("insufficient_space") { return .quotaExceeded }
        if has("malformed_path") || has("disallowed_name") { return .invalidPath }
        if has("conflict") || has("file_ancestor") { return .conflict }
        if has("no_write_permission") || has("restricted_content") || has("team_folder") { return .permissionDenied }
        if has("not_found") || has("not_file") || has("not_folder") || has("invalid_revision") { return .notFound }
        if has("incorrect_offset") { return .conflict }
        return .server
    }

    private static func message(for code: ServiceError.Code, route: String, chain: String) -> String {
        switch code {
        case .notFound: return "Nothing was found at the path or version asked for (\(route): \(chain))."
        case .conflict:
            return
                "The write was refused because something else is there or the version no longer matches (\(route): \(chain)); nothing was changed."
        case .quotaExceeded: return "The Dropbox account has no room for this content (\(route))."
        case .invalidPath: return "Dropbox does not accept this path or name (\(route): \(chain))."
        case .payloadTooLarge: return "The content is larger than Dropbox accepts in one request (\(route))."
        case .integrityMismatch:
            return "Dropbox received content that did not match its content_hash (\(route)); nothing was kept."
        case .invalidChangeToken:
            return "Dropbox no longer accepts this change token (\(route)); resync from a full listing."
        case .rateLimited: return "Dropbox asks to slow down writes (\(route): \(chain))."
        case .permissionDenied: return "Dropbox does not allow this (\(route): \(chain))."
        default: return "Dropbox could not complete \(route) (\(chain))."
        }
    }

    /// The error for a 2xx answer whose body or header could not be decoded.
    /// The detail, which may quote the answer, is scrubbed.
    static func undecodable(route: String, _ detail: String) -> ServiceError {
        ServiceError(
            .invalidResponse,
            "Dropbox's answer to \(route) could not be read: \(Redaction.serverText(detail, secrets: [], limit: 500)).")
    }
}
