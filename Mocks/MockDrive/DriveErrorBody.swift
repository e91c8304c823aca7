import Foundation
import HTTPTypes
import Hummingbird
import MockSupport

/// The JSON error body Google APIs answer with, and the response that carries it:
///
/// ```json
/// {"error": {"code": 404, "message": "File not found: abc.", "status": "NOT_FOUND",
///            "errors": [{"domain": "global", "reason": "notFound", "message": "File not found: abc.",
///                        "locationType": "parameter", "location": "fileId"}]}}
/// ```
///
/// The Drive mock builds every failure with it; fault injection can use it to answer as Drive
/// does (`DriveErrorBody.userRateLimitExceeded().response()`).
public struct DriveErrorBody: Sendable, Hashable {
    /// One entry of the `errors` array.
    public struct Item: Sendable, Hashable {
        /// The error domain, such as `global` or `usageLimits`.
        public var domain: String
        /// The machine-readable reason, such as `notFound`.
        public var reason: String
        /// A sentence for people.
        public var message: String
        /// Where the fault is (`fileId`, `Authorization`, `q`), or `nil`.
        public var location: String?
        /// The kind of location (`parameter`, `header`), or `nil`.
        public var locationType: String?

        /// Creates an entry.
        /// - Parameters:
        ///   - domain: The error domain.
        ///   - reason: The reason.
        ///   - message: The message.
        ///   - location: Where the fault is.
        ///   - locationType: The kind of location.
        public init(
            domain: String = "global", reason: String, message: String, location: String? = nil,
            locationType: String? = nil
        ) {
            self.domain = domain
            self.reason = reason
            self.message = message
            self.location = location
            self.locationType = locationType
        }
    }

    /// The HTTP status code.
    public var code: Int
    /// The top-level message.
    public var message: String
    /// The entries of `errors`.
    public var errors: [Item]
    /// The canonical status name (`NOT_FOUND`); by default the one for ``code``.
    public var status: String
    /// Extra header fields for the answer (such as `WWW-Authenticate`).
    public var headers: [NamedValue]

    /// Creates a body.
    /// - Parameters:
    ///   - code: The HTTP status code.
    ///   - message: The top-level message; by default the first entry's.
    ///   - errors: The entries.
    ///   - status: The canonical status name; by default the one for `code`.
    ///   - headers: Extra header fields for the answer.
    public init(code: Int, message: String? = nil, errors: [Item], status: String? = nil, headers: [NamedValue] = []) {
        self.code = code
        self.message = message ?? errors.first?.message ?? ""
        self.errors = errors
        self.status = status ?? Self.statusName(for: code)
        self.headers = headers
    }

    /// Creates a body with one entry.
    /// - Parameters:
    ///   - code: The HTTP status code.
    ///   - reason: The reason.
    ///   - message: The message.
    ///   - domain: The domain; `global` by default.
    ///   - location: Where the fault is.
    ///   - locationType: The kind of location; `parameter` when a location is given.
    public init(
        code: Int, reason: String, message: String, domain: String = "global", location: String? = nil,
        locationType: String? = nil
    ) {
        self.init(
            code: code,
            errors: [
                Item(
                    domain: domain, reason: reason, message: message, location: location,
                    locationType: locationType ?? (location == nil ? nil : "parameter")
                )
            ])
    }

    /// The canonical status name Google front ends put in `status` for an HTTP code.
    /// - Parameter code: The HTTP status code.
    public static func statusName(for code: Int) -> String {
        switch code {
        case 400: "INVALID_ARGUMENT"
        case 401: "UNAUTHENTICATED"
        case 403: "PERMISSION_DENIED"
        case 404: "NOT_FOUND"
        case 409: "ABORTED"
        case 412: "FAILED_PRECONDITION"
        case 413: "OUT_OF_RANGE"
        case 416: "OUT_OF_RANGE"
        case 429: "RESOURCE_EXHAUSTED"
        case 501: "UNIMPLEMENTED"
        case 503: "UNAVAILABLE"
        case 504: "DEADLINE_EXCEEDED"
        case 500..<600: "INTERNAL"
        default: "UNKNOWN"
        }
    }

    /// The body as a JSON object built from dictionaries, arrays and strings.
    public var jsonObject: [String: Any] {
        let items: [[String: Any]] = errors.map { item in
            var entry: [String: Any] = ["domain": item.domain, "reason": item.reason, "message": item.message]
            if let location = item.location { entry["location"] = location }
            if let locationType = item.locationType { entry["locationType"] = locationType }
            return entry
        }
        return ["error": ["code": code, "message": message, "errors": items, "status": status] as [String: Any]]
    }

    /// The body as JSON text.
    public var json: String {
        DriveJSON.text(jsonObject)
    }

    /// The answer: this status, `Content-Type: application/json; charset=UTF-8` and the body.
    public func response() -> Response {
        var fields: HTTPFields = [:]
        for header in headers {
            if let name = HTTPField.Name(header.name) { fields[name] = header.value }
        }
        fields[.contentType] = "application/json; charset=UTF-8"
        return Response(
            status: HTTPResponse.Status(code: code),
            headers: fields,
            body: ResponseBody(byteBuffer: ByteBuffer(string: json))
        )
    }
}

extension DriveErrorBody {
    /// 404 `notFound` for a file: `File not found: <id>.` at `fileId`.
    /// - Parameter fileId: The id asked for.
    public static func fileNotFound(_ fileId: String) -> DriveErrorBody {
        DriveErrorBody(code: 404, reason: "notFound", message: "File not found: \(fileId).", location: "fileId")
    }

    /// 401 `authError` at the `Authorization` header, with `WWW-Authenticate`, as Google answers
    /// an invalid or expired token.
    public static func invalidCredentials() -> DriveErrorBody {
        DriveErrorBody(
            code: 401,
            message:
                "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
            errors: [
                Item(
                    reason: "authError", message: "Invalid Credentials", location: "Authorization",
                    locationType: "header")
            ],
            headers: [
                NamedValue("WWW-Authenticate", "Bearer realm=\"https://accounts.google.com/\", error=\"invalid_token\"")
            ]
        )
    }

    /// 401 `required` at the `Authorization` header, as Google answers a request without a token.
    public static func loginRequired() -> DriveErrorBody {
        DriveErrorBody(
            code: 401,
            message:
                "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
            errors: [
                Item(reason: "required", message: "Login Required.", location: "Authorization", locationType: "header")
            ],
            headers: [NamedValue("WWW-Authenticate", "Bearer realm=\"https://accounts.google.com/\"")]
        )
    }

    /// 403 `insufficientPermissions`: the token lacks a Drive scope.
    public static func insufficientScopes() -> DriveErrorBody {
        DriveErrorBody(
            code: 403,
            message: "Request had insufficient authentication scopes.",
            errors: [Item(reason: "insufficientPermissions", message: "Insufficient Permission")],
            headers: [
                NamedValue(
                    "WWW-Authenticate", "Bearer realm=\"https://accounts.google.com/\", error=\"insufficient_scope\"")
            ]
        )
    }

    /// 400 `invalid` for a parameter: `Invalid Value` (or the message given) at that parameter.
    /// - Parameters:
    ///   - parameter: The parameter's name, such as `q` or `pageToken`.
    ///   - message: The message.
    public static func invalidParameter(_ parameter: String, message: String = "Invalid Value") -> DriveErrorBody {
        DriveErrorBody(code: 400, reason: "invalid", message: message, location: parameter)
    }

    /// 400 `required` for a missing parameter: `Required parameter: <name>`.
    /// - Parameter parameter: The parameter's name.
    public static func requiredParameter(_ parameter: String) -> DriveErrorBody {
        DriveErrorBody(code: 400, reason: "required", message: "Required parameter: \(parameter)", location: parameter)
    }

    /// 400 `badRequest` with a message.
    /// - Parameter message: The message.
    public static func badRequest(_ message: String = "Bad Request") -> DriveErrorBody {
        DriveErrorBody(code: 400, reason: "badRequest", message: message)
    }

    /// 403 `userRateLimitExceeded` (domain `usageLimits`), which clients retry with backoff.
    public static func userRateLimitExceeded() -> DriveErrorBody {
        DriveErrorBody(
            code: 403, reason: "userRateLimitExceeded", message: "User Rate Limit Exceeded", domain: "usageLimits")
    }

    /// `rateLimitExceeded` (domain `usageLimits`), 403 or 429.
    /// - Parameter code: 403 (the default) or 429.
    public static func rateLimitExceeded(code: Int = 403) -> DriveErrorBody {
        DriveErrorBody(code: code, reason: "rateLimitExceeded", message: "Rate Limit Exceeded", domain: "usageLimits")
    }

    /// 500 `internalError`.
    public static func internalError() -> DriveErrorBody {
        DriveErrorBody(code: 500, reason: "internalError", message: "Internal Error")
    }

    /// A `backendError` with status 500, 502, 503 or 504.
    /// - Parameter code: The status; 503 by default.
    public static func backendError(code: Int = 503) -> DriveErrorBody {
        DriveErrorBody(code: code, reason: "backendError", message: "Backend Error")
    }
}
