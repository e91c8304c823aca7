public import Foundation
public import Stratus
public import StratusHTTP

extension ServiceError.Code {
    /// The code for an HTTP status that a service's own error body does not explain better:
    ///
    /// | HTTP | code |
    /// |---|---|
    /// | 401 | `unauthorized` |
    /// | 403 | `permissionDenied` |
    /// | 404, 410 | `notFound` |
    /// | 408 | `timeout` |
    /// | 409, 412, 423 | `conflict` |
    /// | 413 | `payloadTooLarge` |
    /// | 414 | `invalidPath` |
    /// | 429 | `rateLimited` |
    /// | 507 | `quotaExceeded` |
    /// | 501 | `unsupported` |
    /// | other 5xx | `server` |
    /// | anything else | `invalidResponse` (including 400: a request the adapter built was refused) |
    /// - Parameter status: The status of an answer that is not a success.
    public init(httpStatus status: Int) {
        self =
            switch status {
            case 401: .unauthorized
            case 403: .permissionDenied
            case 404, 410: .notFound
            case 408: .timeout
            case 409, 412, 423: .conflict
            case 413: .payloadTooLarge
            case 414: .invalidPath
            case 429: .rateLimited
            case 501: .unsupported
            case 507: .quotaExceeded
            case 500...599: .server
            default: .invalidResponse
            }
    }
}

extension ServiceError {
    /// The error for an answer that is not a success, when the service's error body says no more
    /// than its status: the code from ``Stratus/ServiceError/Code/init(httpStatus:)``, the
    /// status, the start of the body (scrubbed of `secrets` and of anything shaped like a
    /// credential) as ``/Stratus/ServiceError/providerError``, and for a transient code the
    /// `Retry-After` in either form (a rate limit without one waits a second).
    /// - Parameters:
    ///   - status: The HTTP status.
    ///   - headers: The answer's header fields.
    ///   - body: The answer's body (an error body, never file content).
    ///   - service: The service's name for messages, such as "WebDAV".
    ///   - action: What was being done, such as "PUT of saves/slot-1.json".
    ///   - secrets: Secrets the server may echo back (tokens, passwords), never shown.
    public static func httpFailure(
        status: Int,
        headers: StratusHTTPHeaders,
        body: Data,
        service: String,
        action: String,
        secrets: [String]
    ) -> ServiceError {
        let code = Code(httpStatus: status)
        let text = String(decoding: body.prefix(300), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let detail = text.isEmpty ? nil : Redaction.serverText(text, secrets: secrets)
        var retryAfter = code.isTransient ? headers.retryAfter() : nil
        if code == .rateLimited, retryAfter == nil { retryAfter = .seconds(1) }
        let message =
            switch code {
            case .rateLimited: "\(service) asks to slow down (\(action))."
            case .server: "\(service) failed to answer \(action) (HTTP \(status)); try again later."
            case .invalidResponse: "\(service) answered \(action) with an unexpected HTTP \(status)."
            default: "\(service) refused \(action) with HTTP \(status) (\(code))."
            }
        return ServiceError(code, message, httpStatus: status, providerError: detail, retryAfter: retryAfter)
    }
}
