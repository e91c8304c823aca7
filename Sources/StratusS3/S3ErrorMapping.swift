import Foundation
import Stratus
import StratusAdapterKit
import StratusHTTP

/// Turns S3 answers and transport failures into ``/Stratus/ServiceError``.
///
/// Only the `Code` and `Message` of an S3 error document are kept: a `SignatureDoesNotMatch`
/// document also carries the string to sign and the signature provided, which never leave here.
enum S3ErrorMapping {
    /// The error for a non-2xx answer.
    /// - Parameters:
    ///   - status: The HTTP status.
    ///   - headers: The answer's header fields, for `Retry-After` (either form).
    ///   - body: The answer's body (empty for HEAD).
    ///   - action: What was being done, such as "PutObject of saves/slot-1.json".
    ///   - secrets: The secret key and session token, scrubbed from the server's text.
    static func error(
        status: Int, headers: StratusHTTPHeaders = StratusHTTPHeaders(), body: Data, action: String, secrets: [String]
    ) -> ServiceError {
        var code: String?
        var message: String?
        if !body.isEmpty, let document = try? XMLTree.parse(body), document.name == "Error" {
            code = document.value("Code").map { Redaction.serverText($0, secrets: secrets, limit: 100) }
            message = document.value("Message").map { Redaction.serverText($0, secrets: secrets) }
        }
        let serviceCode = serviceCode(for: code, status: status)
        var text = "\(action) failed"
        if let code { text += " with \(code)" } else { text += " with HTTP \(status)" }
        if let message, !message.isEmpty { text += ": \(message)" }
        text += hint(for: serviceCode)
        let retryAfter = serviceCode.isTransient ? headers.retryAfter() : nil
        return ServiceError(serviceCode, text, httpStatus: status, providerError: code, retryAfter: retryAfter)
    }

    /// The code for an S3 error code, falling back on the HTTP status.
    static func serviceCode(for code: String?, status: Int) -> ServiceError.Code {
        switch code {
        case "NoSuchKey", "NoSuchVersion", "NoSuchUpload": return .notFound
        case "NoSuchBucket": return .invalidConfiguration
        case "PreconditionFailed", "ConditionalRequestConflict", "OperationAborted": return .conflict
        case "SlowDown", "TooManyRequests", "RequestLimitExceeded": return .rateLimited
        case "InvalidAccessKeyId", "SignatureDoesNotMatch", "ExpiredToken", "InvalidToken", "TokenRefreshRequired",
            "RequestTimeTooSkewed":
            return .unauthorized
        case "AccessDenied", "AllAccessDisabled", "AccountProblem": return .permissionDenied
        case "EntityTooLarge", "MaxMessageLengthExceeded": return .payloadTooLarge
        case "EntityTooSmall", "InvalidBucketName", "PermanentRedirect", "AuthorizationHeaderMalformed",
            "IllegalLocationConstraintException":
            return .invalidConfiguration
        case "BadDigest", "InvalidDigest", "XAmzContentSHA256Mismatch", "InvalidPart": return .integrityMismatch
        case "KeyTooLongError": return .invalidPath
        case "QuotaExceeded", "ServiceQuotaExceeded": return .quotaExceeded
        case "RequestTimeout": return .timeout
        case "InternalError", "ServiceUnavailable": return .server
        case "NotImplemented": return .unsupported
        default: break
        }
        // S3 says SlowDown with a 503 that carries no body on HEAD; otherwise the kit's mapping.
        return status == 503 ? .rateLimited : ServiceError.Code(httpStatus: status)
    }

    private static func hint(for code: ServiceError.Code) -> String {
        switch code {
        case .unauthorized: " Check the access key id, secret and session token, and the machine's clock."
        case .invalidConfiguration: " Check the remote's endpoint, region, bucket and addressing options."
        default: ""
        }
    }

    /// An answer the adapter could not read; the reason, which may quote the answer, is scrubbed.
    static func undecodable(_ action: String, _ reason: String) -> ServiceError {
        ServiceError(
            .invalidResponse,
            "\(action) gave an answer that could not be read: \(Redaction.serverText(reason, secrets: [], limit: 500))."
        )
    }
}
