/// The tools compared, in the order they run and are shown.
enum Tool: String, CaseIterable {
    case curl = "curl"
    case urlSession = "URLSession"
    case stratus = "Stratus"
}

/// The workloads, in the order they run.
enum Workload: CaseIterable {
    case download
    case upload
    case gets

    /// Whether the workload moves one large body (its peak memory has a goal).
    var isLargeTransfer: Bool { self != .gets }
}

/// One tool's result on one workload in one round.
struct Measurement {
    var seconds: Double
    var bytes: Int64
    var requests: Int
    /// User plus system CPU time of the client's whole process, start-up included.
    var cpuSeconds: Double
    var peakRSSKiB: Int?
    /// For downloads: how long an `fsync` of the downloaded file took afterwards (about zero
    /// for StratusHTTP, which flushes before it returns).
    var flushSeconds: Double?
}

/// A row of the throughput table, computed from one workload's measurements.
enum Figure: CaseIterable {
    case download
    /// The download's bytes over its time plus the `fsync` afterwards: every tool on the same
    /// terms as StratusHTTP, whose files are on disk when it returns.
    case downloadThenFlush
    case upload
    case gets

    var workload: Workload {
        switch self {
        case .download, .downloadThenFlush: .download
        case .upload: .upload
        case .gets: .gets
        }
    }

    /// Whether the figure is MB/s (else requests per second).
    var isBytesPerSecond: Bool { self != .gets }

    /// MB/s (10^6 bytes per second), or requests per second for the small GETs.
    func value(of measurement: Measurement) -> Double? {
        switch self {
        case .download, .upload:
            Double(measurement.bytes) / measurement.seconds / 1e6
        case .downloadThenFlush:
            measurement.flushSeconds.map { Double(measurement.bytes) / (measurement.seconds + $0) / 1e6 }
        case .gets:
            Double(measurement.requests) / measurement.seconds
        }
    }
}

/// A measurement, or why there is none.
enum Outcome {
    case measured(Measurement)
    case failed(String)
}

/// Every round's outcomes. A figure is the best over the rounds, peak memory the highest, and
/// one failure fails the cell.
struct BenchmarkResults {
    private var measurements: [Workload: [Tool: [Measurement]]] = [:]
    private var failures: [Workload: [Tool: String]] = [:]

    mutating func record(_ outcome: Outcome, workload: Workload, tool: Tool) {
        switch outcome {
        case .measured(let measurement): measurements[workload, default: [:]][tool, default: []].append(measurement)
        case .failed(let reason): failures[workload, default: [:]][tool] = failures[workload]?[tool] ?? reason
        }
    }

    /// The best value of a figure over the rounds, or `nil` when a round failed.
    func best(_ figure: Figure, _ tool: Tool) -> Double? {
        guard failures[figure.workload]?[tool] == nil else { return nil }
        return measurements[figure.workload]?[tool]?.compactMap { figure.value(of: $0) }.max()
    }

    /// The highest peak memory over the rounds, in KiB.
    func peakRSSKiB(_ workload: Workload, _ tool: Tool) -> Int? {
        guard failures[workload]?[tool] == nil else { return nil }
        return measurements[workload]?[tool]?.compactMap(\.peakRSSKiB).max()
    }

    /// The least CPU time over the rounds.
    func leastCPUSeconds(_ workload: Workload, _ tool: Tool) -> Double? {
        guard failures[workload]?[tool] == nil else { return nil }
        return measurements[workload]?[tool]?.map(\.cpuSeconds).min()
    }

    /// Whether no measurement failed.
    var allMeasured: Bool {
        failures.values.allSatisfy(\.isEmpty)
    }

    /// The failures, as "workload, tool: reason" lines.
    func failureLines(describing describe: (Workload) -> String) -> [String] {
        Workload.allCases.flatMap { workload in
            Tool.allCases.compactMap { tool -> String? in
                failures[workload]?[tool].map { "\(describe(workload)), \(tool.rawValue): \($0)" }
            }
        }
    }
}
