import Foundation
import Hummingbird
import MockSupport
import NIOCore
import Stratus
import StratusHTTP
import StratusOAuth
import Testing

/// A token endpoint whose `error` echoes the request: neither the refresh token nor the client
/// secret reaches the error (message or `providerError`), terminal escapes are stripped and the
/// text is cut short.
@Suite struct ServerTextScrubbingTests {
    @Test func anEchoedRefreshTokenAndClientSecretAreScrubbed() async throws {
        let router = Router()
        router.post("/oauth2/token") { request, _ -> Response in
            let form = String(buffer: try await request.body.collect(upTo: 65_536))
            let echo = "\(form)\u{1B}[31m" + String(repeating: "x", count: 2_000)
            let body = try JSONSerialization.data(withJSONObject: [
                "error": echo, "error_description": "you sent \(form)",
            ])
            return Response(
                status: .badRequest, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(data: body)))
        }
        let http = try StratusHTTPClient()
        let caught = try await MockServer.withRunning(router) { url in
            let client = OAuthClient(
                provider: .dropbox(clientID: "app-id", clientSecret: "client-SECRET-42", baseURL: url),
                http: http,
                retryPolicy: RetryPolicy(maximumAttempts: 1)
            )
            do {
                _ = try await client.refresh(
                    OAuthToken(accessToken: "access-SECRET-1", refreshToken: "refresh-SECRET-7"))
                return nil as ServiceError?
            } catch let error as ServiceError {
                return error
            }
        }
        await http.shutdown()
        let error = try #require(caught)
        let shown = "\(error.message) \(error.providerError ?? "") \(String(describing: error))"
        #expect(error.code == .unauthorized, "\(shown)")
        #expect(!shown.contains("refresh-SECRET-7"), "\(shown)")
        #expect(!shown.contains("client-SECRET-42"), "\(shown)")
        #expect(!shown.contains("\u{1B}"))
        #expect(shown.contains("refresh_token=<redacted>"), "\(shown)")
        #expect((error.providerError ?? "").count <= 101)
    }

    @Test func serverTextIsCleanedSecretsFirstFoundAcrossControlCharacters() {
        let text = "key=abc\u{1B}def line\nbreak \u{202E}Bearer tok-123, done"
        let cleaned = Redaction.serverText(text, secrets: ["abcdef"], limit: 1_000)
        #expect(cleaned == "key=<redacted> line break Bearer <redacted>, done")
        #expect(
            Redaction.serverText(String(repeating: "y", count: 50), secrets: [], limit: 10) == String(
                repeating: "y", count: 10) + "…")
    }
}
