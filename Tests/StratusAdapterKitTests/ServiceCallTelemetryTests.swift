import InMemoryTracing
import MetricsTestKit
import Stratus
import StratusAdapterKit
import Synchronization
import Testing
import Tracing

/// The adapters' call wrapper and retry loop report to the task's telemetry: a span per call
/// with the backend's name, the retries and rate limits counted once each.
@Suite struct ServiceCallTelemetryTests {
    private let metrics = TestMetrics()
    private let tracer = InMemoryTracer()
    private var telemetry: StratusTelemetry { StratusTelemetry(metricsFactory: metrics, tracer: tracer) }
    private let quick = RetryPolicy(maximumAttempts: 5, initialDelay: .milliseconds(1), jitter: 0)
    private let backend = [("backend", "TestBackend")]

    /// Fails with the given errors in turn, then answers.
    private final class Script: Sendable {
        private let errors: Mutex<[ServiceError]>
        init(_ errors: [ServiceError]) { self.errors = Mutex(errors) }
        func attempt() throws -> String {
            if let error = errors.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { throw error }
            return "done"
        }
    }

    @Test func retriesAndRateLimitsAreCountedWithTheBackend() async throws {
        let script = Script([
            ServiceError(.rateLimited, "Slow down.", httpStatus: 429, retryAfter: .milliseconds(2)),
            ServiceError(.network, "The connection was reset."),
        ])
        let quick = quick
        let result = try await StratusTelemetry.$current.withValue(telemetry) {
            try await ServiceError.guarding("TestBackend", function: "download(_:version:to:options:)") {
                try await quick.run(.safe) { _ in try script.attempt() }
            }
        }
        #expect(result == "done")
        #expect(metrics.counterTotal(label: "stratus_retries_total", dimensions: backend) == 2)
        #expect(metrics.counterTotal(label: "stratus_rate_limits_total", dimensions: backend) == 1)
        let waits = try metrics.expectTimer("stratus_rate_limit_retry_after_seconds", backend)
        #expect(waits.values == [2_000_000])

        let span = try #require(tracer.finishedSpans.only)
        #expect(span.operationName == "stratus.service.call")
        #expect(span.attributes["stratus.backend"]?.toSpanAttribute() == .string("TestBackend"))
        #expect(span.attributes["stratus.operation"]?.toSpanAttribute() == .string("download"))
        #expect(span.status == nil)
    }

    @Test func aRefusalInsideAnotherLoopIsCountedOnce() async throws {
        let script = Script([ServiceError(.rateLimited, "Slow down.", httpStatus: 429)])
        let quick = quick
        _ = try await StratusTelemetry.$current.withValue(telemetry) {
            try await ServiceError.guarding("TestBackend") {
                try await quick.run(.safe) { _ in
                    // The request sent once, inside its caller's loop (as the adapters' RPCs do).
                    try await quick.run(.never) { _ in try script.attempt() }
                } read: { answer in
                    answer
                }
            }
        }
        #expect(metrics.counterTotal(label: "stratus_rate_limits_total", dimensions: backend) == 1)
        #expect(metrics.counterTotal(label: "stratus_retries_total", dimensions: backend) == 1)
    }

    @Test func aFailedCallsSpanSaysItsCodeAndNoPath() async throws {
        let secretPath = "Clients/Acme/tax-return-2025.pdf"
        await #expect(throws: ServiceError.self) {
            try await StratusTelemetry.$current.withValue(telemetry) {
                try await ServiceError.guarding("TestBackend", function: "metadata(of:)") { () async throws -> Int in
                    throw ServiceError(.notFound, "Nothing is at \(secretPath).")
                }
            }
        }
        let span = try #require(tracer.finishedSpans.only)
        #expect(span.attributes["stratus.error.code"]?.toSpanAttribute() == .string("notFound"))
        #expect(span.status?.code == .error)
        #expect(span.errors.isEmpty, "an error's message may name a path: it is not recorded")
        // swift-format-ignore: ReplaceForEachWithForLoop
        span.attributes.forEach { key, value in
            #expect(!"\(value)".contains("tax-return"), "attribute \(key)")
        }
    }

    @Test func outsideACallTheBackendIsUnknown() async throws {
        let script = Script([ServiceError(.server, "Try again.", httpStatus: 503)])
        let quick = quick
        _ = try await StratusTelemetry.$current.withValue(telemetry) {
            try await quick.run(.safe) { _ in try script.attempt() }
        }
        #expect(metrics.counterTotal(label: "stratus_retries_total", dimensions: [("backend", "unknown")]) == 1)
        #expect(tracer.finishedSpans.isEmpty)
    }
}

extension Array {
    /// The one element, or `nil` when there are none or several.
    fileprivate var only: Element? { count == 1 ? first : nil }
}
