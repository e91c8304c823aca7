import Stratus
import Tracing

/// What a sync run reports through swift-metrics and swift-distributed-tracing, to the
/// ``/Stratus/StratusTelemetry/current`` telemetry (the global systems by default).
///
/// Each run is a span named `stratus.sync.run` with the attributes `stratus.backend` (the
/// service's type, such as `DropboxService`), `stratus.sync.outcome` and the counts of pulled,
/// pushed, conflicted, failed and quarantined records. Its metrics, all with the dimension
/// `backend`:
///
/// - `stratus_sync_runs_total` (counter) and `stratus_sync_run_duration_seconds` (timer), also
///   with the dimension `outcome`: `clean`, `conflicts` (conflicts or quarantined records, no
///   failure), `failures` (a record failed) or `error` (the run threw);
/// - `stratus_sync_records_total` (counter), also with the dimension `direction` (`pulled` or
///   `pushed`);
/// - `stratus_sync_conflicts` and `stratus_sync_quarantined_records` (gauges): how many records
///   are in conflict, and quarantined, after the run.
///
/// No record key, path or file name is ever an attribute or a dimension.
enum SyncRunTelemetry {
    /// The span's operation name.
    static let spanName = "stratus.sync.run"

    /// The name a service is known by in the figures: its type's name, which names no user data.
    static func backendName(of service: any Service) -> String {
        String(describing: type(of: service))
    }

    /// Runs a sync run in its span, and records its metrics.
    /// - Parameters:
    ///   - backend: The service's name.
    ///   - run: The run: its report and the number of quarantined records it leaves.
    /// - Returns: The run's report.
    static func observe(
        backend: String,
        isolation: isolated (any Actor)? = #isolation,
        _ run: () async throws -> (report: SyncReport, quarantined: Int)
    ) async throws -> SyncReport {
        let telemetry = StratusTelemetry.current
        let started = ContinuousClock.now
        let backendDimension = [("backend", backend)]
        return try await telemetry.withSpan(spanName, attributes: ["stratus.backend": backend]) { span in
            let outcome: (report: SyncReport, quarantined: Int)
            do {
                outcome = try await run()
            } catch {
                span.attributes["stratus.sync.outcome"] = "error"
                if let error = error as? SyncError { span.attributes["stratus.error.code"] = "\(error.code)" }
                finish(telemetry, "error", backend: backend, since: started)
                throw error
            }
            let report = outcome.report
            let result = outcomeName(of: report, quarantined: outcome.quarantined)
            span.attributes["stratus.sync.outcome"] = result
            span.attributes["stratus.sync.pulled"] = report.pulled.count
            span.attributes["stratus.sync.pushed"] = report.pushed.count
            span.attributes["stratus.sync.conflicts"] = report.conflicts.count
            span.attributes["stratus.sync.failures"] = report.failures.count
            span.attributes["stratus.sync.quarantined"] = outcome.quarantined
            finish(telemetry, result, backend: backend, since: started)
            let moved = [("pulled", report.pulled.count), ("pushed", report.pushed.count)]
            for (direction, count) in moved where count > 0 {
                let dimensions = backendDimension + [("direction", direction)]
                telemetry.increment("stratus_sync_records_total", by: Int64(count), dimensions: dimensions)
            }
            telemetry.set("stratus_sync_conflicts", to: report.conflicts.count, dimensions: backendDimension)
            telemetry.set("stratus_sync_quarantined_records", to: outcome.quarantined, dimensions: backendDimension)
            return report
        }
    }

    /// The `outcome` of a run that returned: `failures`, `conflicts` or `clean`.
    static func outcomeName(of report: SyncReport, quarantined: Int) -> String {
        if !report.failures.isEmpty { return "failures" }
        return report.conflicts.isEmpty && quarantined == 0 ? "clean" : "conflicts"
    }

    /// Counts a run and records its duration.
    private static func finish(
        _ telemetry: StratusTelemetry, _ outcome: String, backend: String, since started: ContinuousClock.Instant
    ) {
        let dimensions = [("backend", backend), ("outcome", outcome)]
        telemetry.increment("stratus_sync_runs_total", dimensions: dimensions)
        telemetry.record(
            "stratus_sync_run_duration_seconds", duration: ContinuousClock.now - started, dimensions: dimensions)
    }
}
