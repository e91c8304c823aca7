public import Foundation
public import Stratus
import StratusDigest

/// One HTTP request.
public struct StratusHTTPRequest: Sendable, CustomStringConvertible {
    /// The method.
    public var method: StratusHTTPMethod
    /// The absolute `http` or `https` URL.
    public var url: URL
    /// Header fields to send. `Content-Length` is set from the body.
    public var headers: StratusHTTPHeaders
    /// The body.
    public var body: HTTPRequestBody
    /// Digests to compute over the response body as it arrives (2xx answers only).
    public var responseDigests: Set<HashAlgorithm>
    /// Digests to compute over the request body as it is sent.
    public var requestDigests: Set<HashAlgorithm>
    /// A limit on the whole request, overriding the client's
    /// ``StratusHTTPClient/Configuration/Timeouts-swift.struct/total``.
    public var totalTimeout: Duration?
    /// How long no byte may move before the request counts as stalled, overriding the client's
    /// ``StratusHTTPClient/Configuration/Timeouts-swift.struct/stall``: for a request the server
    /// holds on purpose until something happens (a long poll), set it longer than the hold.
    public var stallTimeout: Duration?
    /// The most a content (2xx) body may hold, such as the size a download's metadata declared;
    /// `nil` leaves it to `Content-Length` (which libcurl holds the body to) and, for a body
    /// kept in memory, the client's limit.
    public var contentSizeLimit: ContentSizeLimit?
    /// Whether sending the request twice does no more than sending it once.
    ///
    /// libcurl sends a request again, on its own, when a reused connection closes before any
    /// answer arrives (it takes the connection for a stale one). For a request that is not
    /// idempotent that could apply a write twice, so the body is then refused for the resend
    /// and the request fails with ``StratusHTTPClientError/Code-swift.struct/connectionLost``,
    /// leaving the caller to find out whether the first send took effect. Defaults to the
    /// method's ``StratusHTTPMethod/isIdempotent``: `true` for `GET`, `HEAD`, `PUT`, `DELETE`,
    /// `OPTIONS` and `TRACE`, `false` for `POST`, `PATCH` and any other method not declared
    /// idempotent; APIs that read through `POST` set it.
    public var isIdempotent: Bool

    /// Creates a request.
    /// - Parameters:
    ///   - method: The method.
    ///   - url: The absolute URL.
    ///   - headers: Header fields.
    ///   - body: The body.
    ///   - responseDigests: Digests to compute over the response body.
    ///   - requestDigests: Digests to compute over the request body.
    public init(
        method: StratusHTTPMethod = .get,
        url: URL,
        headers: StratusHTTPHeaders = [:],
        body: HTTPRequestBody = .empty,
        responseDigests: Set<HashAlgorithm> = [],
        requestDigests: Set<HashAlgorithm> = []
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.responseDigests = responseDigests
        self.requestDigests = requestDigests
        self.isIdempotent = method.isIdempotent
    }

    /// `METHOD url` with secrets in the URL redacted; headers are left out.
    public var description: String {
        "\(method) \(Redaction.url(url))"
    }
}
