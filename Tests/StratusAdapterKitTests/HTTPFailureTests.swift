import Foundation
import Stratus
import StratusAdapterKit
import StratusHTTP
import Testing

/// `ServiceError.httpFailure` and `ServiceError.Code(httpStatus:)`: the status mapping an adapter
/// falls back on, with the server's text scrubbed and `Retry-After` kept.
@Suite struct HTTPFailureTests {
    @Test func statusesMapToTheirCodes() {
        let expected: [Int: ServiceError.Code] = [
            400: .invalidResponse, 401: .unauthorized, 403: .permissionDenied, 404: .notFound,
            408: .timeout, 409: .conflict, 410: .notFound, 412: .conflict, 413: .payloadTooLarge,
            414: .invalidPath, 423: .conflict, 429: .rateLimited, 500: .server, 501: .unsupported,
            502: .server, 503: .server, 507: .quotaExceeded, 302: .invalidResponse, 999: .invalidResponse,
        ]
        for (status, code) in expected {
            #expect(ServiceError.Code(httpStatus: status) == code, "HTTP \(status)")
        }
    }

    @Test func aRateLimitKeepsRetryAfterInEitherForm() {
        let now = Date()
        let date = HTTPDate.format(now.addingTimeInterval(30))
        let byDate = ServiceError.httpFailure(
            status: 429, headers: ["Retry-After": date], body: Data(), service: "WebDAV", action: "PUT of a",
            secrets: []
        )
        #expect(byDate.code == .rateLimited)
        #expect(byDate.httpStatus == 429)
        let wait = byDate.retryAfter ?? .zero
        #expect(wait > .seconds(25) && wait <= .seconds(31), "\(wait)")
        let bySeconds = ServiceError.httpFailure(
            status: 503, headers: ["Retry-After": "7"], body: Data(), service: "WebDAV", action: "PUT of a", secrets: []
        )
        #expect(bySeconds.code == .server)
        #expect(bySeconds.retryAfter == .seconds(7))
        let withoutHeader = ServiceError.httpFailure(
            status: 429, headers: [:], body: Data(), service: "WebDAV", action: "PUT of a", secrets: []
        )
        #expect(withoutHeader.retryAfter == .seconds(1))
        let notTransient = ServiceError.httpFailure(
            status: 404, headers: ["Retry-After": "7"], body: Data(), service: "WebDAV", action: "GET of a", secrets: []
        )
        #expect(notTransient.retryAfter == nil)
    }

    @Test func theServersTextNeverCarriesASecret() {
        let body = Data("denied for password hunter2-secret and Authorization: Bearer abc.def.ghi\n\u{1B}[31m".utf8)
        let error = ServiceError.httpFailure(
            status: 403, headers: [:], body: body, service: "WebDAV", action: "PROPFIND of a",
            secrets: ["hunter2-secret"]
        )
        #expect(error.code == .permissionDenied)
        let shown = "\(error) \(error.providerError ?? "")"
        #expect(!shown.contains("hunter2-secret"))
        #expect(!shown.contains("abc.def.ghi"))
        #expect(!shown.contains("\u{1B}"))
        #expect(error.providerError?.contains("denied for password") == true)
    }
}

/// Transport failures: what each client error becomes, and which of them a retry loop may try
/// again.
@Suite struct TransportFailureTests {
    @Test func aShutDownClientIsACancellationNotANetworkFailure() async throws {
        let client = try StratusHTTPClient()
        await client.shutdown()
        let url = try #require(URL(string: "http://127.0.0.1:9/never"))
        do {
            _ = try await client.execute(StratusHTTPRequest(method: .get, url: url))
            Issue.record("a shut-down client sent a request")
        } catch {
            let failure = ServiceError.transportFailure(error, action: "GET of never")
            #expect(failure.code == .cancelled)
            #expect(!failure.code.isTransient)
            #expect(failure.message.contains("shut down"))
        }
    }

    @Test func timeoutsAndConnectionFailuresStayTransient() {
        let timeout = ServiceError.transportFailure(
            StratusHTTPClientError(.stalled, "No byte for 30 s."), action: "GET of a")
        #expect(timeout.code == .timeout && timeout.code.isTransient)
        let refused = ServiceError.transportFailure(
            StratusHTTPClientError(.connectionRefused, "Connection refused."), action: "GET of a")
        #expect(refused.code == .network && refused.code.isTransient)
    }
}
