import Foundation
import Hummingbird
import MockSupport
import NIOCore
import Stratus
import StratusDropbox
import Testing

/// A server that answers an RPC with gigabytes of JSON: the adapter stops reading at its memory
/// limit and fails with a clear error, instead of running out of memory.
@Suite struct OversizedAnswerTests {
    @Test func endlessJSONAnswerFailsAsInvalidResponse() async throws {
        let router = Router()
        router.post("/2/files/get_metadata") { _, _ in
            // 4 GiB announced, streamed in 64 KiB pieces for as long as the client reads.
            let piece = ByteBuffer(repeating: UInt8(ascii: " "), count: 64 * 1024)
            return Response(
                status: .ok,
                headers: [.contentType: "application/json"],
                body: ResponseBody(contentLength: 4 << 30) { writer in
                    for _ in 0..<(1 << 16) { try await writer.write(piece) }
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
            #expect(error?.code == .invalidResponse)
        }
    }
}
