import BenchmarkSupport
import Foundation

/// Wall time and CPU time of one phase.
struct Measured {
    var seconds: Double
    var cpuSeconds: Double

    /// Runs `body` (synchronous code too), timing it by the clock and by this process's CPU time.
    static func run(_ body: () async throws -> Void) async throws -> Measured {
        let cpu = CPUTime.own()
        let clock = ContinuousClock.now
        try await body()
        return Measured(seconds: (ContinuousClock.now - clock).seconds, cpuSeconds: CPUTime.own() - cpu)
    }

    /// The phase's line of ``ReportTables/phases``.
    func row(remote: String, phase: String, records: Int, items: Int, bytes: Int64, requests: Int) -> String {
        let perSecond = { (count: Double) in String(format: "%.0f", count / seconds) }
        return ReportTables.phases.markdownRow([
            remote, phase, FigureText.seconds(seconds), records > 0 ? perSecond(Double(records)) : "—",
            perSecond(Double(items)), bytes > 0 ? String(format: "%.1f", Double(bytes) / 1e6 / seconds) : "—",
            requests > 0 ? String(requests) : "—", String(format: "%.2f", cpuSeconds),
        ])
    }
}
