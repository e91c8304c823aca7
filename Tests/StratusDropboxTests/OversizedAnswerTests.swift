import Foundation
import Hummingbird
import MockSupport
import NIOCore
import Stratus
import StratusDropbox
import StratusHTTP
import Synchronization
import Testing

/// A server that answers an RPC with far more JSON than a client should hold: the adapter stops
/// reading at its 16 MiB memory limit and fails with a clear error, instead of running out of
/// memory.
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
    /// server hears of it.
    static let pieces = 128 * 1_048_576 / (64 * 1024)

    @Test func endlessJSONAnswerFailsAsInvalidResponse() async throws {
        let count = PieceCount()
        let router = Router()
        // Reading metadata first looks for the adapter's property template: there is none yet.
        router.post("/2/file_properties/templates/list_for_user") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"template_ids": []}"#))
            )
        }
        router.post("/2/files/get_metadata") { _, _ in
            count.requests.add(1, ordering: .relaxed)
            // 4 GiB announced; the body never gets near it.
            return Response(
                status: .ok,
                headers: [.contentType: "application/json"],
                body: ResponseBody(contentLength: 4 << 30) { writer in
                    for _ in 0..<Self.pieces {
                        try await writer.write(Self.piece)
                        count.written.add(1, ordering: .relaxed)
                    }
                    try await writer.finish(nil)
                }
            )
        }
        try await MockServer.withRunning(router) { url in
            let service = try DropboxService(
                configuration: DropboxConfiguration(apiURL: url, contentURL: url, notifyURL: url),
                credentials: .accessToken("token-not-checked")
            )
            let error = await #expect(throws: ServiceError.self) {
                _ = try await service.metadata(of: try RemotePath("huge.json"))
            }
            #expect(error?.code == .invalidResponse, "\(String(describing: error))")
            // The memory limit ended it, not the unfinished JSON (which would also be invalid).
            #expect((error?.underlying as? HTTPClientError)?.code == .bodyTooLarge, "\(String(describing: error))")
            // A broken answer is not a busy server: it is not asked again.
            #expect(count.requests.load(ordering: .relaxed) == 1)
        }
        #expect(count.written.load(ordering: .relaxed) >= 16 * 1024 * 1024 / (64 * 1024) - 1)
    }
}
