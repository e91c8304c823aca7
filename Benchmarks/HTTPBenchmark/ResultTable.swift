import BenchmarkSupport
import Foundation

/// The report: the machine, then throughput with Stratus's ratios, then peak memory.
struct ResultTable {
    let options: BenchmarkOptions
    let machine: MachineInfo
    let toolchain: Toolchain
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
            "machine:  \(machine.summary)",
            "libcurl:  \(toolchain.libcurl) (StratusHTTP, via StratusHTTPClient.curlVersion)",
            "curl:     \(toolchain.curlTool)",
            "swift:    \(toolchain.swift)",
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
        var table = Self.table(
            titles: ["throughput"] + Tool.allCases.map(\.rawValue) + [
                "Stratus/curl", "goal ≥ \(goal)", "Stratus/URLSession",
            ])
        for figure in Figure.allCases {
            var row = [describe(figure)]
            for tool in Tool.allCases {
                row.append(results.best(figure, tool).map { throughputText($0, figure) } ?? "FAILED")
            }
            let versusCurl = ratio(figure, .curl)
            row.append(versusCurl.map { String(format: "%.2f", $0) } ?? "—")
            row.append(versusCurl.map { $0 >= Self.throughputGoal ? "met" : "MISSED" } ?? "—")
            row.append(ratio(figure, .urlSession).map { String(format: "%.2f", $0) } ?? "—")
            table.rows.append(row)
        }
        return table.plainText()
    }

    private func memoryTable() -> [String] {
        let goal = String(format: "%.0f", Self.peakRSSGoalMiB)
        var table = Self.table(titles: ["peak RSS"] + Tool.allCases.map(\.rawValue) + ["Stratus goal ≤ \(goal) MiB"])
        for workload in Workload.allCases {
            var row = [Self.describe(workload, options)]
            for tool in Tool.allCases {
                row.append(results.peakRSSKiB(workload, tool).map { FigureText.mebibytes(kib: $0) } ?? "—")
            }
            if workload.isLargeTransfer, let stratusKiB = results.peakRSSKiB(workload, .stratus) {
                row.append(Double(stratusKiB) / 1024 <= Self.peakRSSGoalMiB ? "met" : "MISSED")
            } else {
                row.append("—")
            }
            table.rows.append(row)
        }
        return table.plainText()
    }

    /// CPU time is less disturbed than throughput by other work on a shared machine.
    private func cpuTable() -> [String] {
        var table = Self.table(titles: ["client CPU, user+sys"] + Tool.allCases.map(\.rawValue) + ["Stratus/curl"])
        for workload in Workload.allCases {
            var row = [Self.describe(workload, options)]
            for tool in Tool.allCases {
                row.append(results.leastCPUSeconds(workload, tool).map { FigureText.seconds($0) } ?? "—")
            }
            if let stratus = results.leastCPUSeconds(workload, .stratus),
                let curl = results.leastCPUSeconds(workload, .curl), curl > 0
            {
                row.append(String(format: "%.2f", stratus / curl))
            } else {
                row.append("—")
            }
            table.rows.append(row)
        }
        return table.plainText()
    }

    /// Stratus's figure over another tool's.
    private func ratio(_ figure: Figure, _ other: Tool) -> Double? {
        guard let stratus = results.best(figure, .stratus), let theirs = results.best(figure, other) else { return nil }
        return stratus / theirs
    }

    private func throughputText(_ value: Double, _ figure: Figure) -> String {
        figure.isBytesPerSecond ? String(format: "%.1f MB/s", value) : String(format: "%.0f req/s", value)
    }

    /// A table whose first column (the workload) is left-aligned and the others right-aligned.
    private static func table(titles: [String]) -> ReportTable {
        ReportTable(columns: titles.enumerated().map { ($1, $0 == 0 ? .left : .right) })
    }
}
