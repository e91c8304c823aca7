public import Foundation
public import Stratus
import StratusDigest

/// Where a response body goes.
///
/// To download a service's file, use ``resumableFile(_:)`` into a staging file, check the
/// content, and only then move it into place (StratusAdapterKit's `DownloadStaging` does all
/// three): ``unverifiedFile(_:)`` replaces the destination before anything can be checked.
public enum HTTPResponseDestination: Sendable {
    /// Into ``StratusHTTPResponse/body``; a body longer than `limit` bytes fails the request with
    /// ``StratusHTTPClientError/Code/bodyTooLarge`` instead of exhausting memory.
    case memory(limit: Int)
    /// Into a local file, atomically but **unchecked**: the body of a 2xx answer is written to a
    /// temporary file in the same folder, flushed to disk and renamed over the destination as
    /// soon as the whole body arrived, before the caller sees its digest. Any other answer
    /// leaves the destination untouched and its body (up to the client's
    /// ``StratusHTTPClient/Configuration/errorBodyLimit``) lands in ``StratusHTTPResponse/body``.
    ///
    /// For content whose digest or size must be checked (every download of a service's file),
    /// use ``resumableFile(_:)`` into a staging file instead and rename after the check.
    case unverifiedFile(URL)
    /// Into a local file that keeps what arrived, for downloads that continue after a failure.
    ///
    /// When the file already holds bytes, the request goes out with `Range: bytes=<length>-`:
    /// a 206 answer whose `Content-Range` starts at that length is appended, one that starts
    /// elsewhere fails with ``StratusHTTPClientError/Code/invalidResponse``, a 200 answer replaces
    /// what the file held, and a 416 answer (the file holds at least as many bytes as the
    /// content now has) empties the file and the request goes out once more without `Range`,
    /// since those bytes cannot be trusted to be the current content. Any other answer leaves the file as it was, its body in
    /// ``StratusHTTPResponse/body``. When a transfer fails midway, the bytes that arrived stay in the
    /// file, so sending the same request again continues where it stopped.
    /// ``StratusHTTPResponse/bodyLength``, ``StratusHTTPResponse/bodyDigests`` and progress count the whole
    /// file. Nothing is flushed or renamed: the caller checks the content, then moves it into
    /// place.
    case resumableFile(URL)

    /// The old name of ``unverifiedFile(_:)``, which renames the body over the destination
    /// before its digest can be checked.
    /// - Parameter url: The destination.
    @available(
        *, deprecated, renamed: "unverifiedFile",
        message:
            "It replaces the destination before the content can be checked; download into .resumableFile(_:) and rename after the check (StratusAdapterKit's DownloadStaging), or say unverifiedFile(_:)."
    )
    public static func file(_ url: URL) -> HTTPResponseDestination { .unverifiedFile(url) }
}

/// A complete response.
public struct StratusHTTPResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The header fields of the final answer.
    public var headers: StratusHTTPHeaders
    /// The body for ``HTTPResponseDestination/memory(limit:)``; for
    /// ``HTTPResponseDestination/unverifiedFile(_:)``, the body of a non-2xx answer.
    public var body: Data
    /// The file the body was written to, when it was.
    public var file: URL?
    /// The number of body bytes received.
    public var bodyLength: Int64
    /// Lowercase hex digests of the response body, for the algorithms the request asked for.
    public var bodyDigests: [HashAlgorithm: String]
    /// Lowercase hex digests of the request body as sent.
    public var requestBodyDigests: [HashAlgorithm: String]
    /// How the exchange travelled.
    public var connection: ConnectionInfo

    /// Whether the status is in the 2xx range.
    public var isSuccess: Bool { (200..<300).contains(status) }

    /// Creates a response, as the client does when an exchange completes; public so tests of
    /// code that reads responses can build them.
    /// - Parameters:
    ///   - status: The status code.
    ///   - headers: The header fields.
    ///   - body: The body held in memory.
    ///   - file: The file the body was written to, if any.
    ///   - bodyLength: The number of body bytes received; defaults to the size of `body`.
    ///   - bodyDigests: Hex digests of the response body by algorithm.
    ///   - requestBodyDigests: Hex digests of the request body by algorithm.
    ///   - connection: How the exchange travelled; by default a new HTTP/1.1 connection.
    public init(
        status: Int,
        headers: StratusHTTPHeaders = [:],
        body: Data = Data(),
        file: URL? = nil,
        bodyLength: Int64? = nil,
        bodyDigests: [HashAlgorithm: String] = [:],
        requestBodyDigests: [HashAlgorithm: String] = [:],
        connection: ConnectionInfo = ConnectionInfo(reused: false, httpVersion: "HTTP/1.1")
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.file = file
        self.bodyLength = bodyLength ?? Int64(body.count)
        self.bodyDigests = bodyDigests
        self.requestBodyDigests = requestBodyDigests
        self.connection = connection
    }
}

/// How a request travelled.
public struct ConnectionInfo: Hashable, Sendable {
    /// Whether an open connection from an earlier request was used (no new connect).
    public var reused: Bool
    /// The protocol version, such as `HTTP/1.1` or `HTTP/2`.
    public var httpVersion: String

    /// Describes how an exchange travelled.
    /// - Parameters:
    ///   - reused: Whether an open connection from an earlier request was used.
    ///   - httpVersion: The protocol version, such as `HTTP/1.1` or `HTTP/2`.
    public init(reused: Bool, httpVersion: String) {
        self.reused = reused
        self.httpVersion = httpVersion
    }
}

/// A response whose body is read as it arrives.
public struct HTTPStreamingResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The header fields.
    public var headers: StratusHTTPHeaders
    /// The body, chunk by chunk. Reading slowly pauses the transfer; dropping it cancels it.
    public var body: HTTPBodyStream

    /// Creates a streaming response, as the client does when a header arrives; public so tests
    /// can build one (with ``HTTPBodyStream/init(chunks:failure:)`` as its body).
    /// - Parameters:
    ///   - status: The status code.
    ///   - headers: The header fields.
    ///   - body: The body stream.
    public init(status: Int, headers: StratusHTTPHeaders = [:], body: HTTPBodyStream) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// How far a request has come.
public struct HTTPProgress: Hashable, Sendable {
    /// Body bytes sent so far.
    public var bytesSent: Int64
    /// The request body's size, when known.
    public var bytesToSend: Int64?
    /// Body bytes received so far.
    public var bytesReceived: Int64
    /// The response body's size, when announced.
    public var bytesToReceive: Int64?

    /// Describes how far a request has come.
    /// - Parameters:
    ///   - bytesSent: Body bytes sent so far.
    ///   - bytesToSend: The request body's size, when known.
    ///   - bytesReceived: Body bytes received so far.
    ///   - bytesToReceive: The response body's size, when announced.
    public init(bytesSent: Int64 = 0, bytesToSend: Int64? = nil, bytesReceived: Int64 = 0, bytesToReceive: Int64? = nil)
    {
        self.bytesSent = bytesSent
        self.bytesToSend = bytesToSend
        self.bytesReceived = bytesReceived
        self.bytesToReceive = bytesToReceive
    }
}
