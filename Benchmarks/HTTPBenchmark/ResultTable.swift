import Foundation

/// The report: the machine, then throughput with Stratus's ratios, then peak memory.
struct ResultTable {
    let options: BenchmarkOptions
    let machine: MachineInfo
    let results: BenchmarkResults

    static let throughputGoal = 0.9
    static let peakRSSGoalMiB = 64.0

    static func describe(_ workload: Workload, _ options: BenchmarkOptions) -> String {
        switch workload {
        case .download: "download \(options.sizeMiB) MiB to a file"
        case .upload: "upload \(options.sizeMiB) MiB from a file"
        case .gets:
            "\(options.requests) GETs of \(BenchmarkOptions.smallBodyBytes / 1024) KiB, \(options.concurrency) at once"
        }
    }

    private func describe(_ figure: Figure) -> String {
        switch figure {
        case .downloadThenFlush: "  the same, fsync included"
        default: Self.describe(figure.workload, options)
        }
    }

    func render() -> String {
        var lines = [
            "StratusHTTP vs curl vs URLSession — loopback Hummingbird server on 127.0.0.1, HTTP/1.1",
            "machine:  nproc \(machine.processors), CPU \(machine.cpuModel), \(String(format: "%.1f", machine.memoryGiB)) GiB RAM, "
                + "Linux \(machine.kernel), load average \(machine.loadAverage) at start",
            "libcurl:  \(machine.libcurl) (StratusHTTP, via StratusHTTPClient.curlVersion)",
            "curl:     \(machine.curlTool)",
            "swift:    \(machine.swift)",
            "rounds:   \(options.rounds) (best throughput and highest peak RSS over the rounds)",
            "",
        ]
        lines += throughputTable()
        lines.append("")
        lines += memoryTable()
        lines.append("")
        lines += cpuTable()
        lines += [
            "",
            "MB/s = 10^6 bytes/s. Swift clients run in child processes of their own and are timed inside them, from",
            "client creation to shutdown; curl is timed from its start to its exit (includes a few ms of start-up).",
            "Stratus's download computes SHA-256 in flight and fsyncs the file before renaming it into place; curl",
            "and URLSession do neither, so \"fsync included\" adds to their time an fsync of their file made right after",
            "they exit. Peak RSS is VmHWM: Swift clients read their own just before exiting; curl's is sampled from",
            "/proc/<pid>/status every ~10 ms. Client CPU is the whole client process's (wait4), start-up included,",
            "least over the rounds. Downloads were checked by size and SHA-256, uploads by the server's byte count,",
            "the GETs by the server's request count.",
        ]
        let failures = results.failureLines { Self.describe($0, options) }
        if !failures.isEmpty {
            lines += ["", "FAILED:"] + failures.map { "  \($0)" }
        }
        return lines.joined(separator: "\n")
    }

    private func throughputTable() -> [String] {
        let goal = String(format: "%.2f", Self.throughputGoal)
        var rows = [
            ["throughput"] + Tool.allCases.map(\.rawValue) + ["Stratus/curl", "goal ≥ \(goal)", "Stratus/URLSession"]
        ]
        for figure in Figure.allCases {
            var row = [describe(figure)]
            for tool in Tool.allCases {
                row.append(results.best(figure, tool).map { throughputText($0, figure) } ?? "FAILED")
            }
            let versusCurl = ratio(figure, .curl)
            row.append(versusCurl.map { String(format: "%.2f", $0) } ?? "—")
            row.append(versusCurl.map { $0 >= Self.throughputGoal ? "met" : "MISSED" } ?? "—")
            row.append(ratio(figure, .urlSession).map { String(format: "%.2f", $0) } ?? "—")
            rows.append(row)
        }
        return Self.align(rows)
    }

    private func memoryTable() -> [String] {
        let goal = String(format: "%.0f", Self.peakRSSGoalMiB)
        var rows = [["peak RSS"] + Tool.allCases.map(\.rawValue) + ["Stratus goal ≤ \(goal) MiB"]]
        for workload in Workload.allCases {
            var row = [Self.describe(workload, options)]
            for tool in Tool.allCases {
                row.append(
                    results.peakRSSKiB(workload, tool).map { String(format: "%.1f MiB", Double($0) / 1024) } ?? "—")
            }
            if workload.isLargeTransfer, let stratusKiB = results.peakRSSKiB(workload, .stratus) {
                row.append(Double(stratusKiB) / 1024 <= Self.peakRSSGoalMiB ? "met" : "MISSED")
            } else {
                row.append("—")
            }
            rows.append(row)
        }
        return Self.align(rows)
    }

    /// CPU time is less disturbed than throughput by other work on a shared machine.
    private func cpuTable() -> [String] {
        var rows = [["client CPU, user+sys"] + Tool.allCases.map(\.rawValue) + ["Stratus/curl"]]
        for workload in Workload.allCases {
            var row = [Self.describe(workload, options)]
            for tool in Tool.allCases {
                row.append(results.leastCPUSeconds(workload, tool).map { String(format: "%.2f s", $0) } ?? "—")
            }
            if let stratus = results.leastCPUSeconds(workload, .stratus),
                let curl = results.leastCPUSeconds(workload, .curl), curl > 0
            {
                row.append(String(format: "%.2f", stratus / curl))
            } else {
                row.append("—")
            }
            rows.append(row)
        }
        return Self.align(rows)
    }

    /// Stratus's figure over another tool's.
    private func ratio(_ figure: Figure, _ other: Tool) -> Double? {
        guard let stratus = results.best(figure, .stratus), let theirs = results.best(figure, other) else { return nil }
        return stratus / theirs
    }

    private func throughputText(_ value: Double, _ figure: Figure) -> String {
        figure.isBytesPerSecond ? String(format: "%.1f MB/s", value) : String(format: "%.0f req/s", value)
    }

    /// Pads the columns: the first left-aligned, the others right-aligned.
    private static func align(_ rows: [[String]]) -> [String] {
        let widths = (0..<(rows.first?.count ?? 0)).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + padding : padding + cell
            }.joined(separator: "   ")
        }
    }
}
