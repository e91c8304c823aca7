import Foundation
import Stratus
import StratusAdapterKit
import StratusHTTP

/// Turns WebDAV answers into ``/Stratus/ServiceError``.
///
/// Only the status and a short, redacted server message (`s:message` of a Sabre/Nextcloud error
/// document, or the `responsedescription` of a multistatus) are kept.
enum WebDAVErrorMapping {
    /// The error for a non-2xx answer.
    static func error(
        status: Int, headers: StratusHTTPHeaders = StratusHTTPHeaders(), body: Data, action: String, secrets: [String]
    ) -> ServiceError {
        let code = serviceCode(status: status)
        var text = "\(action) failed with HTTP \(status)"
        if let message = message(in: body, secrets: secrets), !message.isEmpty { text += ": \(message)" }
        if code == .unauthorized { text += " Check the remote's user and password." }
        let retryAfter: Duration? = status == 423 ? .milliseconds(100) : (code.isTransient ? headers.retryAfter() : nil)
        return ServiceError(code, text, httpStatus: status, retryAfter: retryAfter)
    }

    /// The code for an HTTP status. A 423 (a lock held by another writer) is a refusal that
    /// passes, so it counts as a rate limit: the request was not carried out and may be sent again.
    static func serviceCode(status: Int) -> ServiceError.Code {
        switch status {
        case 401: .unauthorized
        case 403: .permissionDenied
        case 404, 410: .notFound
        case 409, 412: .conflict
        case 413: .payloadTooLarge
        case 414: .invalidPath
        case 423, 429, 503: .rateLimited
        case 507: .quotaExceeded
        case 501: .unsupported
        case 500...599: .server
        default: .invalidResponse
        }
    }

    /// The error a 207 answer to a write stands for: its worst inner status.
    static func multistatusFailure(_ body: Data, action: String, secrets: [String]) -> ServiceError {
        guard let document = try? XMLTree.parse(body) else {
            return undecodable(action, "a 207 answer to a write that is not a multistatus document")
        }
        let statuses = document.children("response").compactMap { $0.value("status").flatMap(WebDAVEntry.statusCode) }
        let worst = statuses.first { $0 == 423 } ?? statuses.first { !(200..<300).contains($0) && $0 != 424 } ?? 500
        return error(status: worst, body: body, action: action, secrets: secrets)
    }

    /// A short server message from an error or multistatus document.
    static func message(in body: Data, secrets: [String]) -> String? {
        guard !body.isEmpty, body.count < 256 * 1024, let document = try? XMLTree.parse(body) else {
            return nil
        }
        let text =
            document.value("message")
            ?? document.children("response").lazy.compactMap { $0.value("responsedescription") }.first
        return text.map { Redaction.serverText($0, secrets: secrets, limit: 200) }
    }

    /// An answer the adapter could not read.
    static func undecodable(_ action: String, _ reason: String) -> ServiceError {
        ServiceError(
            .invalidResponse,
            "\(action) gave an answer that could not be read: \(Redaction.serverText(reason, secrets: [], limit: 300))."
        )
    }
}
