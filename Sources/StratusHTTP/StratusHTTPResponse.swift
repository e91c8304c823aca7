import Foundation
import StratusDigest

/// Where a response body goes.
public enum HTTPResponseDestination: Sendable {
    /// Into ``StratusHTTPResponse/body``; a body longer than `limit` bytes fails the request with
    /// ``StratusHTTPClientError/Code/bodyTooLarge`` instead of exhausting memory.
    case memory(limit: Int)
    /// Into a local file, atomically: the body of a 2xx answer is written to a temporary file in
    /// the same folder, flushed to disk and renamed over the destination only when the whole
    /// body arrived. Any other answer leaves the destination untouched and its body (up to the
    /// client's ``StratusHTTPClient/Configuration/errorBodyLimit``) lands in ``StratusHTTPResponse/body``.
    case file(URL)
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
}

/// A complete response.
public struct StratusHTTPResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The header fields of the final answer.
    public var headers: StratusHTTPHeaders
    /// The body for ``HTTPResponseDestination/memory(limit:)``; for
    /// ``HTTPResponseDestination/file(_:)``, the body of a non-2xx answer.
    public var body: Data
    /// The file the body was written to, when it was.
    public var file: URL?
    /// The number of body bytes received.
    public var bodyLength: Int64
    /// Lowercase hex digests of the response body, for the algorithms the request asked for.
    public var bodyDigests: [DigestAlgorithm: String]
    /// Lowercase hex digests of the request body as sent.
    public var requestBodyDigests: [DigestAlgorithm: String]
    /// How the exchange travelled.
    public var connection: ConnectionInfo

    /// Whether the status is in the 2xx range.
    public var isSuccess: Bool { (200..<300).contains(status) }
}

/// How a request travelled.
public struct ConnectionInfo: Hashable, Sendable {
    /// Whether an open connection from an earlier request was used (no new connect).
    public var reused: Bool
    /// The protocol version, such as `HTTP/1.1` or `HTTP/2`.
    public var httpVersion: String
}

/// A response whose body is read as it arrives.
public struct HTTPStreamingResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The header fields.
    public var headers: StratusHTTPHeaders
    /// The body, chunk by chunk. Reading slowly pauses the transfer; dropping it cancels it.
    public var body: HTTPBodyStream
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
}
