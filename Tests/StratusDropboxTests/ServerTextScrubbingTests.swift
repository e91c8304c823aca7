import Foundation
import Hummingbird
import MockSupport
import NIOCore
import Stratus
import StratusDropbox
import Testing

/// A Dropbox 400 answer that echoes the request's `Authorization` header: the token never
/// reaches the error's message or `providerError`, and neither do terminal escapes.
@Suite struct ServerTextScrubbingTests {
    @Test func anEchoedTokenIsScrubbedFromA400() async throws {
        let token = "sl.secret-token-4242"
        let router = Router()
        router.post("/2/file_properties/templates/list_for_user") { request, _ in
            let authorization = request.headers[.authorization] ?? ""
            let bare = authorization.replacingOccurrences(of: "Bearer ", with: "")
            return Response(
                status: .badRequest,
                headers: [.contentType: "text/plain"],
                body: ResponseBody(
                    byteBuffer: ByteBuffer(
                        string:
                            "Error in call: Authorization: \(authorization); token=\(bare)\u{1B}[2J\u{1B}]0;owned\u{07}"
                    ))
            )
        }
        try await MockServer.withRunning(router) { url in
            let service = try DropboxService(
                configuration: DropboxConfiguration(apiURL: url, contentURL: url, notifyURL: url),
                credentials: .accessToken(token)
            )
            let error = await #expect(throws: ServiceError.self) {
                _ = try await service.metadata(of: try RemotePath("a.txt"))
            }
            let shown = "\(error?.message ?? "") \(error?.providerError ?? "") \(String(describing: error))"
            #expect(error?.code == .invalidResponse, "\(shown)")
            #expect(!shown.contains(token))
            #expect(!shown.contains("secret-token"))
            #expect(!shown.contains("\u{1B}") && !shown.contains("\u{07}"))
            #expect(shown.contains("token=<redacted>"), "\(shown)")
        }
    }
}
