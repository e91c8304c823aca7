import Foundation
import Hummingbird
import MockSupport
import Stratus
import StratusHTTP
import StratusOAuth
import Synchronization
import Testing

/// The token endpoint failing in ways the mock authorization server does not simulate.
@Suite struct TokenEndpointRetryTests {
    /// Answers the token endpoint from a script, one answer per request, the last one repeated.
    private func withScriptedTokenEndpoint<Result: Sendable>(
        _ script: [(status: HTTPResponse.Status, headers: HTTPFields, body: String)],
        _ body: @Sendable (OAuthClient, _ requests: @escaping @Sendable () -> Int) async throws -> Result
    ) async throws -> Result {
        let count = Mutex(0)
        let router = Router()
        router.post("/oauth2/token") { _, _ -> Response in
            let index = count.withLock { count in
                defer { count += 1 }
                return count
            }
            let answer = script[min(index, script.count - 1)]
            var headers = answer.headers
            headers[.contentType] = "application/json"
            return Response(
                status: answer.status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: answer.body)))
        }
        let http = try StratusHTTPClient()
        do {
            let result = try await MockServer.withRunning(router) { url in
                let client = OAuthClient(
                    provider: .dropbox(clientID: "k", clientSecret: "s", baseURL: url),
                    http: http,
                    retryPolicy: quickRetries
                )
                return try await body(client) { count.withLock { $0 } }
            }
            await http.shutdown()
            return result
        } catch {
            await http.shutdown()
            throw error
        }
    }

    private let success = #"{"access_token": "new", "token_type": "bearer", "expires_in": 14400}"#

    @Test func serverFailuresAndRateLimitsAreRetried() async throws {
        try await withScriptedTokenEndpoint([
            (.serviceUnavailable, [:], "unavailable"),
            (.tooManyRequests, [.retryAfter: "0"], #"{"error": "too_many_requests"}"#),
            (.ok, [:], success),
        ]) { client, requests in
            let token = try await client.refresh(OAuthToken(accessToken: "old", refreshToken: "r"))
            #expect(token.accessToken == "new")
            #expect(token.refreshToken == "r")
            #expect(requests() == 3)
        }
    }

    @Test func retriesGiveUpWithATransientError() async throws {
        try await withScriptedTokenEndpoint([(.badGateway, [:], "bad gateway")]) { client, requests in
            let error = await #expect(throws: ServiceError.self) {
                try await client.refresh(OAuthToken(accessToken: "old", refreshToken: "r"))
            }
            #expect(error?.code == .server)
            #expect(error?.code.isTransient == true)
            #expect(requests() == quickRetries.maximumAttempts)
        }
    }

    @Test func invalidGrantAndBadClientsAreNotRetried() async throws {
        try await withScriptedTokenEndpoint([
            (
                .badRequest, [:],
                #"{"error": "invalid_client", "error_description": "Invalid client_id or client_secret"}"#
            )
        ]) { client, requests in
            let error = await #expect(throws: ServiceError.self) {
                try await client.refresh(OAuthToken(accessToken: "old", refreshToken: "r"))
            }
            #expect(error?.code == .invalidConfiguration)
            #expect(requests() == 1)
        }
    }

    @Test func aTokenWithoutRefreshTokenCannotBeRenewed() async throws {
        try await withScriptedTokenEndpoint([(.ok, [:], success)]) { client, requests in
            let error = await #expect(throws: ServiceError.self) {
                try await client.refresh(OAuthToken(accessToken: "old"))
            }
            #expect(error?.code == .reauthenticationRequired)
            #expect(requests() == 0)
        }
    }

    @Test func aGarbledAnswerIsAnInvalidResponse() async throws {
        try await withScriptedTokenEndpoint([(.ok, [:], "<html>oops</html>")]) { client, _ in
            let error = await #expect(throws: ServiceError.self) {
                try await client.refresh(OAuthToken(accessToken: "old", refreshToken: "r"))
            }
            #expect(error?.code == .invalidResponse)
        }
    }
}
