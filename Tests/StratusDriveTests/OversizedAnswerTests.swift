import Foundation
import Hummingbird
import MockSupport
import NIOCore
import Stratus
import StratusDrive
import StratusHTTP
import Synchronization
import Testing

/// A server whose `files.list` answer is JSON that does not end within anything a client should
/// hold: the adapter stops reading at its 16 MiB memory limit and fails with a clear error,
/// instead of running out of memory.
@Suite struct OversizedAnswerTests {
    /// How many pieces of the answer the server handed to the connection, and how often it was asked.
    final class PieceCount: Sendable {
        let written = Atomic<Int>(0)
        let requests = Atomic<Int>(0)
    }

    /// 64 KiB pieces of JSON whitespace.
    static let piece = ByteBuffer(repeating: UInt8(ascii: " "), count: 64 * 1024)
    /// 128 MiB in all, eight times what the client keeps. Bounded, because a write returns once
    /// NIO has queued it: after the client hangs up, more pieces pile up in memory before the
    /// server hears of it, and a busy machine must not queue gigabytes.
    static let pieces = 128 * 1_048_576 / (64 * 1024)

    @Test func endlessFileListFailsAsInvalidResponse() async throws {
        let count = PieceCount()
        let router = Router()
        // The appDataFolder alias resolves to a real id first, with a small, valid answer.
        router.get("/drive/v3/files/{fileId}") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "application/json; charset=UTF-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"id": "appdata-root"}"#))
            )
        }
        router.get("/drive/v3/files") { _, _ in
            count.requests.add(1, ordering: .relaxed)
            // No Content-Length: chunked, so nothing but the body itself tells the client its size.
            return Response(
                status: .ok,
                headers: [.contentType: "application/json; charset=UTF-8"],
                body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(string: #"{"kind": "drive#fileList", "files": ["#))
                    for _ in 0..<Self.pieces {
                        try await writer.write(Self.piece)
                        count.written.add(1, ordering: .relaxed)
                    }
                    try await writer.finish(nil)
                }
            )
        }
        try await MockServer.withRunning(router) { url in
            let service = try DriveService(
                configuration: DriveConfiguration(
                    apiURL: url, uploadURL: url, root: .appDataFolder,
                    retryPolicy: RetryPolicy(maximumAttempts: 3, initialDelay: .milliseconds(10))
                ),
                credentials: .accessToken("token-not-checked")
            )
            let error = await #expect(throws: ServiceError.self) {
                _ = try await service.metadata(of: try RemotePath("huge.json"))
            }
            #expect(error?.code == .invalidResponse, "\(String(describing: error))")
            #expect(error?.message.contains("files.list") == true, "\(String(describing: error))")
            // The memory limit ended it, not the unfinished JSON (which would also be invalid).
            #expect((error?.underlying as? HTTPClientError)?.code == .bodyTooLarge, "\(String(describing: error))")
            // A broken answer is not a busy server: it is not asked again.
            #expect(count.requests.load(ordering: .relaxed) == 1)
        }
        // The client read up to its limit before it hung up.
        let written = count.written.load(ordering: .relaxed)
        #expect(written >= 16 * 1024 * 1024 / (64 * 1024) - 1, "written \(written)")
    }
}
