import BenchmarkSupport

/// The report's two Markdown tables, whose lines are printed as each remote is measured.
enum ReportTables {
    /// A line per phase of each remote (``Measured/row(remote:phase:records:items:bytes:requests:)``).
    static let phases = ReportTable(columns: [
        ("remote", .left), ("phase", .left), ("time", .right), ("records/s", .right), ("items/s", .right),
        ("MB/s", .right), ("requests", .right), ("CPU s (user+sys)", .right),
    ])

    /// A line per remote for automatic sync (``PropagationBenchmark``).
    static let propagation = ReportTable(columns: [
        ("remote", .left), ("waiting", .left), ("changes", .right), ("p50", .right), ("p95", .right), ("max", .right),
        ("propagation goal", .left), ("idle requests/min per device", .right),
        ("idle CPU (share of a core)", .right), ("CPU while changing", .right),
    ])
}
