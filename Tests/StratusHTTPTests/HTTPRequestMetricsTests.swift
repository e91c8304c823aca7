import Foundation
import MetricsTestKit
import Stratus
import StratusHTTP
import Testing

/// Every request the client sends is counted, with its backend, method and status class, and
/// its body bytes; the metrics go to the telemetry of the task, not to a global system.
@Suite struct HTTPRequestMetricsTests {
    private static func dimensions(_ method: String, _ statusClass: String) -> [(String, String)] {
        [("backend", "TestBackend"), ("method", method), ("status_class", statusClass)]
    }

    @Test func requestsAreCountedWithTheirDimensionsAndBytes() async throws {
        let metrics = TestMetrics()
        let telemetry = StratusTelemetry(metricsFactory: metrics, backend: "TestBackend")
        let content = TestServer.content(300_000)
        try await TestServer.with(EchoRoutes.router()) { base in
            let client = try StratusHTTPClient()
            try await StratusTelemetry.$current.withValue(telemetry) {
                let hello = try await client.execute(StratusHTTPRequest(url: base.appending(path: "hello")))
                #expect(hello.status == 200)
                let echoed = try await client.execute(
                    StratusHTTPRequest(method: .put, url: base.appending(path: "echo-digest"), body: .bytes(content)))
                #expect(echoed.status == 200)
                let missing = try await client.execute(StratusHTTPRequest(url: base.appending(path: "no-such-route")))
                #expect(missing.status == 404)
            }
            await client.shutdown()
        }
        #expect(
            metrics.counterTotal(label: "stratus_http_requests_total", dimensions: Self.dimensions("GET", "2xx")) == 1)
        #expect(
            metrics.counterTotal(label: "stratus_http_requests_total", dimensions: Self.dimensions("PUT", "2xx")) == 1)
        #expect(
            metrics.counterTotal(label: "stratus_http_requests_total", dimensions: Self.dimensions("GET", "4xx")) == 1)
        #expect(metrics.counterTotal(label: "stratus_http_requests_total") == 3)
        let timer = try metrics.expectTimer("stratus_http_request_duration_seconds", Self.dimensions("PUT", "2xx"))
        #expect(timer.values.count == 1)
        #expect(timer.values.allSatisfy { $0 > 0 })
        let backend = [("backend", "TestBackend")]
        #expect(metrics.counterTotal(label: "stratus_http_sent_bytes_total", dimensions: backend) == 300_000)
        #expect(metrics.counterTotal(label: "stratus_http_received_bytes_total", dimensions: backend) >= 5)
    }

    @Test func aRequestWithoutAnAnswerIsCountedAsAnError() async throws {
        let metrics = TestMetrics()
        let client = try StratusHTTPClient()
        await StratusTelemetry.$current.withValue(StratusTelemetry(metricsFactory: metrics)) {
            // Port 1 on the loopback: nothing listens there, the connection is refused.
            guard let url = URL(string: "http://127.0.0.1:1/") else {
                Issue.record("no URL")
                return
            }
            await #expect(throws: StratusHTTPClientError.self) {
                try await client.execute(StratusHTTPRequest(url: url))
            }
        }
        await client.shutdown()
        let dimensions = [("backend", "unknown"), ("method", "GET"), ("status_class", "error")]
        #expect(metrics.counterTotal(label: "stratus_http_requests_total", dimensions: dimensions) == 1)
        #expect(metrics.counters(label: "stratus_http_sent_bytes_total").isEmpty)
    }
}
