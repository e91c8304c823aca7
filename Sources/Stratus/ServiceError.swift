public import Foundation

/// The error every ``Service`` throws.
///
/// Switch on ``code`` to decide what to do; show ``message`` to a person. The code is a struct
/// over a private enumeration, so new codes can be added without breaking anyone's `switch`
/// (compare with `==` or match with `case .notFound`, and keep a `default`).
public struct ServiceError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case notFound, conflict, unauthorized, reauthenticationRequired, rateLimited
            case quotaExceeded, payloadTooLarge, invalidPath, invalidChangeToken
            case integrityMismatch, network, timeout, server, cancelled, unsupported
            case invalidConfiguration, invalidResponse, localFile, permissionDenied, internalError
        }

        private let base: Base

        private init(_ base: Base) { self.base = base }

        /// Nothing exists at the path or version asked for.
        public static let notFound = Code(.notFound)
        /// A precondition did not hold, or something else is in the way (a folder where a file
        /// was to go); nothing was changed.
        public static let conflict = Code(.conflict)
        /// The credentials were refused and could not be refreshed right now.
        public static let unauthorized = Code(.unauthorized)
        /// The stored sign-in is no longer valid (revoked or expired refresh token); the user
        /// must sign in again.
        public static let reauthenticationRequired = Code(.reauthenticationRequired)
        /// The provider asks the caller to slow down; see ``ServiceError/retryAfter``.
        public static let rateLimited = Code(.rateLimited)
        /// The account has no room for the content.
        public static let quotaExceeded = Code(.quotaExceeded)
        /// The content is larger than the provider accepts in that request.
        public static let payloadTooLarge = Code(.payloadTooLarge)
        /// The path breaks the provider's rules.
        public static let invalidPath = Code(.invalidPath)
        /// The change token is no longer accepted; resync from a full listing.
        public static let invalidChangeToken = Code(.invalidChangeToken)
        /// Content did not match its hash; the bad bytes were not kept.
        public static let integrityMismatch = Code(.integrityMismatch)
        /// The connection failed (refused, reset, DNS, TLS).
        public static let network = Code(.network)
        /// The provider took too long to answer or stalled mid-transfer.
        public static let timeout = Code(.timeout)
        /// The provider failed (HTTP 5xx or an internal error it reported).
        public static let server = Code(.server)
        /// The caller's task was cancelled; nothing partial was left behind.
        public static let cancelled = Code(.cancelled)
        /// The service does not offer this operation or option.
        public static let unsupported = Code(.unsupported)
        /// A remote's configuration is missing an option or has a bad value.
        public static let invalidConfiguration = Code(.invalidConfiguration)
        /// The provider answered with something the adapter could not understand.
        public static let invalidResponse = Code(.invalidResponse)
        /// A local file could not be read or written.
        public static let localFile = Code(.localFile)
        /// The account may not do this to this file.
        public static let permissionDenied = Code(.permissionDenied)
        /// Stratus itself, or something it called, failed in a way it does not expect (a bug,
        /// not a busy provider): never transient, so it is not retried; please report it.
        public static let internalError = Code(.internalError)

        /// The code's name, such as `notFound`.
        public var description: String { base.rawValue }

        /// Whether repeating the same request later may succeed (rate limits, server failures,
        /// network failures and timeouts).
        public var isTransient: Bool {
            switch base {
            case .rateLimited, .server, .network, .timeout: true
            default: false
            }
        }
    }

    /// The kind of failure.
    public var code: Code
    /// What went wrong and, where there is something to do, what to do next.
    public var message: String
    /// The HTTP status of the provider's answer, when there was one.
    public var httpStatus: Int?
    /// The provider's own error text (a Dropbox `error_summary`, a Google error reason), kept
    /// for logs and support requests.
    public var providerError: String?
    /// How long the provider asked the caller to wait before trying again.
    public var retryAfter: Duration?
    /// The error underneath, such as an HTTP client error.
    public var underlying: (any Error & Sendable)?

    /// Creates an error.
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - message: What went wrong, in words a person can act on.
    ///   - httpStatus: The provider's HTTP status.
    ///   - providerError: The provider's own error text.
    ///   - retryAfter: How long the provider asked to wait.
    ///   - underlying: The error underneath.
    public init(
        _ code: Code,
        _ message: String,
        httpStatus: Int? = nil,
        providerError: String? = nil,
        retryAfter: Duration? = nil,
        underlying: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.message = message
        self.httpStatus = httpStatus
        self.providerError = providerError
        self.retryAfter = retryAfter
        self.underlying = underlying
    }

    /// The code and message, then the HTTP status, provider's error text, requested wait and underlying error when present.
    public var description: String {
        var text = "\(code): \(message)"
        var details: [String] = []
        if let httpStatus { details.append("HTTP \(httpStatus)") }
        if let providerError { details.append("provider: \(providerError)") }
        if let retryAfter { details.append("retry after \(retryAfter)") }
        if let underlying { details.append("cause: \(underlying)") }
        if !details.isEmpty { text += " (" + details.joined(separator: "; ") + ")" }
        return text
    }
}

extension ServiceError: LocalizedError {
    /// The same text as ``description``, for code that reads `localizedDescription`.
    public var errorDescription: String? { description }
}
