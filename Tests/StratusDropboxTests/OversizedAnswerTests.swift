import Foundation
import HTTPTypes
import Hummingbird
import MockSupport
import NIOCore
import Stratus
import StratusDropbox
import StratusHTTP
import StratusTestSupport
import Testing

/// A server that answers an RPC with far more JSON than a client should hold: the adapter stops
/// reading at its 16 MiB memory limit and fails with a clear error, instead of running out of
/// memory.
@Suite struct OversizedAnswerTests {
    @Test func endlessJSONAnswerFailsAsInvalidResponse() async throws {
        // 4 GiB announced; 128 MiB of spaces sent at most.
        let answer = OversizedAnswer(head: "", piece: " ", total: 128 << 20, announcedLength: 4 << 30)
        let router = Router()
        // Reading metadata first looks for the adapter's property template: there is none yet.
        router.post("/2/file_properties/templates/list_for_user") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"template_ids": []}"#))
            )
        }
        router.post("/2/files/get_metadata") { _, _ in answer.response() }
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
            #expect(
                (error?.underlying as? StratusHTTPClientError)?.code == .bodyTooLarge, "\(String(describing: error))")
            // A broken answer is not a busy server: it is not asked again.
            #expect(answer.requestCount == 1)
        }
        // The client read up to its limit before it hung up.
        #expect(answer.bytesWritten >= 16 * 1_048_576 - answer.pieceSize)
    }

    @Test func aDownloadStopsAtTheSizeDropboxAPIResultDeclares() async throws {
        // Dropbox-API-Result says 16 bytes; the body goes on for 128 MiB, chunked.
        let declared =
            #"{".tag": "file", "name": "save.bin", "id": "id:a", "path_lower": "/save.bin", "path_display": "/save.bin", "#
            + #""rev": "0123456789abcdef", "size": 16, "server_modified": "2026-11-26T00:00:00Z", "#
            + #""client_modified": "2026-11-26T00:00:00Z", "content_hash": "\#(String(repeating: "0", count: 64))"}"#
        let name = try #require(HTTPField.Name("Dropbox-API-Result"))
        let answer = OversizedAnswer(
            head: "", piece: "x", total: 128 << 20, contentType: "application/octet-stream", headers: [name: declared])
        let router = Router()
        router.post("/2/files/download") { _, _ in answer.response() }
        let folder = try TemporaryFolder(prefix: "stratus-dropbox-oversized")
        defer { folder.remove() }
        try await MockServer.withRunning(router) { url in
            let service = try DropboxService(
                configuration: DropboxConfiguration(apiURL: url, contentURL: url, notifyURL: url),
                credentials: .accessToken("token-not-checked")
            )
            let received = ProgressLog()
            let error = await #expect(throws: ServiceError.self) {
                _ = try await service.download(
                    try RemotePath("save.bin"), version: nil, to: folder.file("save.bin"),
                    options: DownloadOptions { received.add($0.completedBytes) })
            }
            // Not one byte beyond the declared 16 was taken (before, 2 × 64 MiB were).
            #expect((received.values.max() ?? 0) <= 16, "\(received.values.max() ?? 0) bytes were taken")
            #expect(error?.code == .invalidResponse, "\(String(describing: error))")
            #expect(
                (error?.underlying as? StratusHTTPClientError)?.code == .bodyTooLarge, "\(String(describing: error))")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("save.bin").path(percentEncoded: false)))
    }
}
