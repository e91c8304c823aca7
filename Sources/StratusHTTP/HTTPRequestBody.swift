public import Foundation

/// The body of a request.
public enum HTTPRequestBody: Sendable {
    /// No body.
    case empty
    /// Bytes in memory.
    case bytes(Data)
    /// A local file, or a byte range of it (for one chunk of a chunked upload), read from disk
    /// as the request is sent.
    case file(URL, range: Range<Int64>? = nil)
    /// Chunks produced as the request is sent. The producer is asked for the next chunk only
    /// after the previous one was handed to the connection, so a slow network slows the
    /// producer instead of filling memory. With `length` the request carries a
    /// `Content-Length`; without it, HTTP/1.1 chunked encoding is used.
    case stream(AsyncThrowingStream<Data, any Error>, length: Int64?)

    /// The number of bytes when known before sending.
    public var knownLength: Int64? {
        switch self {
        case .empty: 0
        case .bytes(let data): Int64(data.count)
        case .file(_, let range?): range.upperBound - range.lowerBound
        case .file: nil
        case .stream(_, let length): length
        }
    }
}
