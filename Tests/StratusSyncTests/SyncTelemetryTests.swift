import Foundation
import InMemoryTracing
import MetricsTestKit
import Stratus
import StratusLocal
import StratusSync
import Testing
import Tracing

/// A sync run reports to the task's telemetry: its span with the backend's name and outcome,
/// the local backend's call spans inside it, its metrics; never a record's id or a path.
@Suite struct SyncTelemetryTests {
    @Test func aSyncRunHasItsSpanAndMetricsAndNamesNoPath() async throws {
        let harness = try SyncHarness()
        defer { harness.remove() }
        let metrics = TestMetrics()
        let tracer = InMemoryTracer()
        let service = try LocalService(root: harness.folder.appending(path: "remote", directoryHint: .isDirectory))
        let store = try harness.device("a", service: service)
        try store.save(Save(level: 3), as: key("dragon-lair"), files: ["state": harness.file("s", "SECRET-STATE")])
        let telemetry = StratusTelemetry(metricsFactory: metrics, tracer: tracer)
        let report = try await StratusTelemetry.$current.withValue(telemetry) { try await store.sync() }
        #expect(report.pushed.count == 1)

        let runs = tracer.finishedSpans.filter { $0.operationName == "stratus.sync.run" }
        let run = try #require(runs.first)
        #expect(runs.count == 1)
        #expect(run.attributes["stratus.backend"]?.toSpanAttribute() == .string("LocalService"))
        #expect(run.attributes["stratus.sync.outcome"]?.toSpanAttribute() == .string("clean"))
        #expect(run.attributes["stratus.sync.pushed"]?.toSpanAttribute() == .int64(1))

        let calls = tracer.finishedSpans.filter { $0.operationName == "stratus.service.call" }
        #expect(!calls.isEmpty)
        #expect(calls.allSatisfy { $0.attributes["stratus.backend"]?.toSpanAttribute() == .string("local") })
        #expect(calls.allSatisfy { $0.traceID == run.traceID }, "the calls are children of the run")
        let operations = calls.compactMap { $0.attributes["stratus.operation"]?.toSpanAttribute() }
        #expect(operations.contains(SpanAttribute.string("upload")))

        for span in tracer.finishedSpans {
            // swift-format-ignore: ReplaceForEachWithForLoop
            span.attributes.forEach { key, value in
                let text = "\(value)"
                #expect(!text.contains("dragon"), "\(span.operationName) \(key) names the record")
                #expect(!text.contains("/"), "\(span.operationName) \(key) looks like a path")
                #expect(!text.contains("SECRET"), "\(span.operationName) \(key)")
            }
        }

        let dimensions = [("backend", "LocalService"), ("outcome", "clean")]
        #expect(metrics.counterTotal(label: "stratus_sync_runs_total", dimensions: dimensions) == 1)
        #expect(try metrics.expectTimer("stratus_sync_run_duration_seconds", dimensions).values.count == 1)
        let pushed = [("backend", "LocalService"), ("direction", "pushed")]
        #expect(metrics.counterTotal(label: "stratus_sync_records_total", dimensions: pushed) == 1)
        let conflicts = try metrics.expectGauge("stratus_sync_conflicts", [("backend", "LocalService")])
        #expect(conflicts.lastValue == 0)
        let quarantined = try metrics.expectGauge("stratus_sync_quarantined_records", [("backend", "LocalService")])
        #expect(quarantined.lastValue == 0)
    }

    @Test func aConflictIsTheRunsOutcome() async throws {
        let harness = try SyncHarness()
        defer { harness.remove() }
        let metrics = TestMetrics()
        let service = try LocalService(root: harness.folder.appending(path: "remote", directoryHint: .isDirectory))
        let a = try harness.device("a", service: service)
        let b = try harness.device("b", service: service)
        let slot = try key("slot-1")
        try a.save(Save(level: 1), as: slot, files: [:])
        try await a.sync()
        try await b.sync()
        try a.save(Save(level: 2), as: slot, files: [:])
        try await a.sync()
        try b.save(Save(level: 3), as: slot, files: [:])
        let report = try await StratusTelemetry.$current.withValue(StratusTelemetry(metricsFactory: metrics)) {
            try await b.sync()
        }
        #expect(report.conflicts == [slot])
        let dimensions = [("backend", "LocalService"), ("outcome", "conflicts")]
        #expect(metrics.counterTotal(label: "stratus_sync_runs_total", dimensions: dimensions) == 1)
        #expect(try metrics.expectGauge("stratus_sync_conflicts", [("backend", "LocalService")]).lastValue == 1)
    }
}
