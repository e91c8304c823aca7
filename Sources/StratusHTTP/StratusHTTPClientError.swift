/// A failure to complete an HTTP exchange. (An answer with an error status is not a failure:
/// it is an ``StratusHTTPResponse``.)
public struct StratusHTTPClientError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure. New codes may be added; keep a `default` when switching.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// Nothing listens at the address.
        public static let connectionRefused = Code("connectionRefused")
        /// The host name did not resolve.
        public static let hostNotFound = Code("hostNotFound")
        /// The TLS handshake failed, or the peer's certificate is not trusted.
        public static let tls = Code("tls")
        /// Connecting, or the whole request, took longer than allowed.
        public static let timeout = Code("timeout")
        /// No bytes moved in either direction for longer than the stall timeout.
        public static let stalled = Code("stalled")
        /// The connection broke before the exchange completed.
        public static let connectionLost = Code("connectionLost")
        /// The caller's task was cancelled.
        public static let cancelled = Code("cancelled")
        /// The response body exceeded the memory limit.
        public static let bodyTooLarge = Code("bodyTooLarge")
        /// The answer does not fit the request, such as a resumed body that does not continue
        /// where the file stopped.
        public static let invalidResponse = Code("invalidResponse")
        /// A local file could not be read or written.
        public static let localFile = Code("localFile")
        /// The request cannot be sent as given (bad URL, bad range).
        public static let invalidRequest = Code("invalidRequest")
        /// The client was shut down.
        public static let shutDown = Code("shutDown")
        /// The request body stream failed.
        public static let bodyStreamFailed = Code("bodyStreamFailed")
        /// Any other transport failure; see ``StratusHTTPClientError/curlCode``.
        public static let transport = Code("transport")

        /// The code's name, such as `connectionRefused`.
        public var description: String { name }
    }

    /// The kind of failure.
    public var code: Code
    /// What happened.
    public var message: String
    /// libcurl's result code, when libcurl reported the failure.
    public var curlCode: Int?
    /// libcurl's own description of the failure.
    public var curlMessage: String?
    /// The error underneath (a file error, the body stream's error).
    public var underlying: (any Error & Sendable)?

    /// Creates an error.
    public init(
        _ code: Code,
        _ message: String,
        curlCode: Int? = nil,
        curlMessage: String? = nil,
        underlying: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.message = message
        self.curlCode = curlCode
        self.curlMessage = curlMessage
        self.underlying = underlying
    }

    /// The code and message, then libcurl's code and text and the underlying error when present.
    public var description: String {
        var text = "\(code): \(message)"
        if let curlCode { text += " (curl \(curlCode)\(curlMessage.map { ": \($0)" } ?? ""))" }
        if let underlying { text += " (cause: \(underlying))" }
        return text
    }
}
