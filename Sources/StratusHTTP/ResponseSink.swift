import Foundation

/// What a sink answers libcurl's write callback.
enum SinkVerdict {
    /// The bytes were taken.
    case accepted
    /// The sink is full; libcurl keeps the bytes and offers them again after a resume.
    case pause
    /// The sink cannot take the bytes; the transfer fails with this error.
    case fail(StratusHTTPClientError)
}

/// Receives a response body on the event-loop thread.
protocol ResponseSink: AnyObject {
    /// The final header block arrived.
    /// - Returns: An error that stops the transfer, such as a temporary file that cannot be made.
    func headersComplete(status: Int, headers: StratusHTTPHeaders) -> StratusHTTPClientError?
    /// The next body bytes.
    func receive(_ bytes: UnsafeRawBufferPointer) -> SinkVerdict
    /// Whether received bytes are the content (a 2xx body) rather than an error answer, so they
    /// count towards digests.
    var isContent: Bool { get }
    /// The transfer ended; gives what the caller gets.
    func finish() -> SinkOutput
    /// The transfer failed or was cancelled: discard anything partial now (a sink whose
    /// destination keeps what arrived for a later attempt only lets go of its file).
    func abandon()
    /// Content that was in place before this answer's body, once the header block arrived: the
    /// body continues it, so lengths and digests count it too.
    var resumedContent: ResumedContent? { get }
}

extension ResponseSink {
    var resumedContent: ResumedContent? { nil }
}

/// What a sink hands to the caller once a transfer ends.
struct SinkOutput: Sendable {
    var body = Data()
    var pendingFile: PendingFile?
    /// A file the body is already in, with nothing left to commit.
    var file: URL?
}

/// Collects a body in memory, up to a limit.
final class MemorySink: ResponseSink {
    private let limit: Int
    private var data = Data()
    private(set) var isContent = false

    init(limit: Int) { self.limit = limit }

    func headersComplete(status: Int, headers: StratusHTTPHeaders) -> StratusHTTPClientError? {
        isContent = (200..<300).contains(status)
        data = Data()
        return nil
    }

    func receive(_ bytes: UnsafeRawBufferPointer) -> SinkVerdict {
        guard data.count + bytes.count <= limit else {
            return .fail(
                StratusHTTPClientError(.bodyTooLarge, "The response body is larger than the limit of \(limit) bytes."))
        }
        data.append(contentsOf: bytes)
        return .accepted
    }

    func finish() -> SinkOutput { SinkOutput(body: data) }

    func abandon() { data = Data() }
}
