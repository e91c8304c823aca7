import Hummingbird
import NIOCore
import Synchronization

/// An answer far larger than a client should hold, for tests of a client's memory limit: a head,
/// then a piece repeated up to a total, counting how often it was asked for and how many bytes
/// it handed to the connection.
///
/// The total is bounded on purpose: a write returns once NIO has queued it, so after the client
/// hangs up a few more pieces pile up in memory before the server hears of it. Eight times the
/// client's limit shows the limit at work without queueing gigabytes.
///
/// ```swift
/// let answer = OversizedAnswer(head: #"{"entries": ["#, piece: " ", total: 128 << 20)
/// router.post("/2/files/get_metadata") { _, _ in answer.response() }
/// ```
public final class OversizedAnswer: Sendable {
    private let head: ByteBuffer
    private let piece: ByteBuffer
    private let pieces: Int
    private let contentType: String
    private let announcedLength: Int?
    private let headers: HTTPFields
    private let requests = Atomic<Int>(0)
    private let written = Atomic<Int>(0)

    /// Describes the answer.
    /// - Parameters:
    ///   - head: What the body starts with, such as the opening of a JSON object.
    ///   - piece: Text repeated (in pieces of about 64 KiB) after the head.
    ///   - total: About how many bytes of pieces to send in all.
    ///   - contentType: The `Content-Type` of the answer.
    ///   - announcedLength: A `Content-Length` to announce, or `nil` for a chunked body that only
    ///     its end would measure.
    ///   - headers: More header fields, such as one that declares a smaller size.
    public init(
        head: String, piece: String, total: Int, contentType: String = "application/json", announcedLength: Int? = nil,
        headers: HTTPFields = [:]
    ) {
        let repeats = max(1, 65_536 / max(1, piece.utf8.count))
        self.head = ByteBuffer(string: head)
        self.piece = ByteBuffer(string: String(repeating: piece, count: repeats))
        self.pieces = max(1, total / self.piece.readableBytes)
        self.contentType = contentType
        self.announcedLength = announcedLength
        self.headers = headers
    }

    /// How many times ``response()`` was called.
    public var requestCount: Int { requests.load(ordering: .relaxed) }

    /// How many bytes of pieces were handed to the connection.
    public var bytesWritten: Int { written.load(ordering: .relaxed) }

    /// The size of one piece, the unit a client can stop reading within.
    public var pieceSize: Int { piece.readableBytes }

    /// A 200 answer with the head, then pieces until the total or until the client hangs up.
    public func response() -> Response {
        requests.add(1, ordering: .relaxed)
        let body = ResponseBody(contentLength: announcedLength) { [self] writer in
            try await writer.write(head)
            for _ in 0..<pieces {
                try await writer.write(piece)
                written.add(piece.readableBytes, ordering: .relaxed)
            }
            try await writer.finish(nil)
        }
        var fields = headers
        fields[.contentType] = contentType
        return Response(status: .ok, headers: fields, body: body)
    }
}
