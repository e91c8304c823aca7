/// How many bytes a content answer's body (a 2xx body) may hold: a transfer that receives more
/// is stopped at once with ``StratusHTTPClientError/Code-swift.struct/bodyTooLarge``, so a
/// server that declares 16 bytes and sends gigabytes costs 16 bytes, not a full download
/// followed by a failed hash check.
///
/// The limit counts the whole content, including bytes a resumed download already holds. A
/// `Content-Length` above the limit stops the transfer before any body byte is taken.
public struct ContentSizeLimit: Sendable {
    /// Reads the allowed size from the answer's headers; `nil` when they declare none.
    let allowed: @Sendable (StratusHTTPHeaders) -> Int64?

    /// A size known before the request was sent, such as the one metadata reported.
    /// - Parameter size: The content's size in bytes.
    /// - Returns: The limit.
    public static func bytes(_ size: Int64) -> ContentSizeLimit {
        ContentSizeLimit { _ in size }
    }

    /// A size the answer declares in its headers, such as a JSON header describing the file.
    /// An answer that declares none is refused before its body is taken.
    /// - Parameter read: Reads the declared size from the answer's headers, or `nil`.
    /// - Returns: The limit.
    public static func declared(by read: @escaping @Sendable (StratusHTTPHeaders) -> Int64?) -> ContentSizeLimit {
        ContentSizeLimit(allowed: read)
    }
}
