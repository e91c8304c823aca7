import Foundation
import Hummingbird
import MockSupport
import NIOCore
import Stratus
import StratusDrive
import StratusHTTP
import Testing

/// A server whose `files.list` answer is JSON that does not end within anything a client should
/// hold: the adapter stops reading at its 16 MiB memory limit and fails with a clear error,
/// instead of running out of memory.
@Suite struct OversizedAnswerTests {
    @Test func endlessFileListFailsAsInvalidResponse() async throws {
        // Chunked, so nothing but the body itself tells the client its size; 128 MiB at most.
        let answer = OversizedAnswer(
            head: #"{"kind": "drive#fileList", "files": ["#, piece: " ", total: 128 << 20,
            contentType: "application/json; charset=UTF-8")
        let router = Router()
        // The appDataFolder alias resolves to a real id first, with a small, valid answer.
        router.get("/drive/v3/files/{fileId}") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "application/json; charset=UTF-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"id": "appdata-root"}"#))
            )
        }
        router.get("/drive/v3/files") { _, _ in answer.response() }
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
            #expect(
                (error?.underlying as? StratusHTTPClientError)?.code == .bodyTooLarge, "\(String(describing: error))")
            // A broken answer is not a busy server: it is not asked again.
            #expect(answer.requestCount == 1)
        }
        // The client read up to its limit before it hung up.
        #expect(answer.bytesWritten >= 16 * 1_048_576 - answer.pieceSize)
    }
}
