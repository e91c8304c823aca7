import Foundation

/// One client's figure on one workload: a throughput (higher is better) or a duration.
struct Figure: Sendable {
    var value: Double
    var peakRSSKiB: Int?
}

/// A line of the table: Stratus next to its peer on one workload.
struct ResultRow: Sendable {
    enum Kind: Sendable {
        /// Higher is better; the ratio is Stratus / peer.
        case rate(unit: String)
        /// Seconds, lower is better; the ratio is peer / Stratus (Stratus's speed-up).
        case duration
    }

    var workload: String
    var kind: Kind
    var stratus: Result<Figure, BenchmarkFailure>?
    var peerName: String
    var peer: Result<Figure, BenchmarkFailure>?
    /// The ratio Stratus should reach, if the issue sets one.
    var ratioGoal: Double?
    /// Stratus's peak RSS goal, if the issue sets one.
    var memoryGoalMiB: Double?
}

/// The report: one Markdown table plus notes and failures.
struct ResultTable {
    var rows: [ResultRow] = []

    func render(header: [String], notes: [String]) -> String {
        var lines = header + [""]
        lines.append("| workload | Stratus | peer | Stratus/peer | goal | Stratus peak RSS | peer peak RSS |")
        lines.append("|---|--:|--:|--:|---|--:|--:|")
        var failures: [String] = []
        for row in rows {
            let stratus = cell(row.stratus, row.kind)
            let peer = row.peer.map { "\(cell($0, row.kind)) (\(row.peerName))" } ?? "—"
            var ratioText = "—"
            var goals: [String] = []
            if case .success(let ours)? = row.stratus, case .success(let theirs)? = row.peer {
                let ratio: Double =
                    switch row.kind {
                    case .rate: ours.value / theirs.value
                    case .duration: theirs.value / ours.value
                    }
                ratioText = String(format: ratio >= 10 ? "%.0f×" : "%.2f×", ratio)
                if let goal = row.ratioGoal {
                    goals.append("≥ \(String(format: "%g", goal))×: \(ratio >= goal ? "met" : "**not met**")")
                }
            } else if let goal = row.ratioGoal {
                goals.append("≥ \(String(format: "%g", goal))×: not measured")
            }
            if let goal = row.memoryGoalMiB {
                if case .success(let ours)? = row.stratus, let kib = ours.peakRSSKiB {
                    goals.append("RSS ≤ \(Int(goal)) MiB: \(Double(kib) / 1024 <= goal ? "met" : "**not met**")")
                } else {
                    goals.append("RSS ≤ \(Int(goal)) MiB: not measured")
                }
            }
            let stratusRSS = memory(row.stratus)
            let peerRSS = memory(row.peer)
            lines.append(
                "| \(row.workload) | \(stratus) | \(peer) | \(ratioText) | \(goals.isEmpty ? "—" : goals.joined(separator: "; ")) | \(stratusRSS) | \(peerRSS) |"
            )
            if case .failure(let failure)? = row.stratus { failures.append("\(row.workload), Stratus: \(failure)") }
            if case .failure(let failure)? = row.peer {
                failures.append("\(row.workload), \(row.peerName): \(failure)")
            }
        }
        lines += [""] + notes
        if !failures.isEmpty {
            lines += ["", "FAILED:"] + failures.map { "- \($0)" }
        }
        return lines.joined(separator: "\n")
    }

    private func cell(_ result: Result<Figure, BenchmarkFailure>?, _ kind: ResultRow.Kind) -> String {
        switch result {
        case nil: return "—"
        case .failure: return "FAILED"
        case .success(let figure):
            switch kind {
            case .rate(let unit):
                return String(format: figure.value >= 100 ? "%.0f" : "%.1f", figure.value) + " " + unit
            case .duration: return String(format: "%.2f s", figure.value)
            }
        }
    }

    private func memory(_ result: Result<Figure, BenchmarkFailure>?) -> String {
        guard case .success(let figure)? = result, let kib = figure.peakRSSKiB else { return "—" }
        return String(format: "%.1f MiB", Double(kib) / 1024)
    }
}
