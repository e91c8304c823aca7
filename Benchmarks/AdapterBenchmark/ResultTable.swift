import BenchmarkSupport
import Foundation

/// One client's figure on one workload: a throughput (higher is better) or a duration, with
/// what the client's processes and the server spent in CPU meanwhile.
struct Figure: Sendable {
    var value: Double
    var peakRSSKiB: Int?
    /// User + system CPU of the client's process (and of any it ran, such as `tee` and a hasher).
    var cpuSeconds: Double?
    /// User + system CPU the server (mock, moto, Apache) used while the client ran.
    var serverCPUSeconds: Double?
    /// The client process's wall time, start to exit (the server's share is measured against it).
    var wallSeconds: Double?
}

/// A client compared with Stratus on a workload.
struct PeerResult: Sendable {
    var name: String
    var result: Result<Figure, BenchmarkFailure>
    /// The ratio Stratus should reach against this peer, if the issue sets one.
    var ratioGoal: Double?
    /// More checks for the goal column, such as how many files were found afterwards.
    var checks: [String] = []
}

/// A workload: Stratus's figure and its peers', each peer on a line of its own with Stratus's
/// ratio against it.
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
    var peers: [PeerResult] = []
    /// Stratus's peak RSS goal, if the issue sets one.
    var memoryGoalMiB: Double?
    /// The client column of Stratus's line.
    var stratusName = "Stratus"
    /// More checks for the goal column of Stratus's line.
    var stratusChecks: [String] = []

    init(
        workload: String, kind: Kind, stratus: Result<Figure, BenchmarkFailure>?, peers: [PeerResult] = [],
        memoryGoalMiB: Double? = nil
    ) {
        self.workload = workload
        self.kind = kind
        self.stratus = stratus
        self.peers = peers
        self.memoryGoalMiB = memoryGoalMiB
    }

    var failed: Bool {
        if case .failure? = stratus { return true }
        return peers.contains { if case .failure = $0.result { true } else { false } }
    }
}

/// The report: one Markdown table plus notes and failures.
struct ResultTable {
    var rows: [ResultRow] = []

    /// A server that used this share of a core over a client's run is marked as the row's limit
    /// ("server-bound"): moto answers from one Python interpreter, so about one core is its most.
    static let serverBoundShare = 0.85

    /// The columns: a workload's name on its first line only, then a line per client.
    private static let layout = ReportTable(columns: [
        ("workload", .left), ("client", .left), ("result", .right), ("client CPU (user+sys)", .right),
        ("server CPU (share of a core)", .right), ("peak RSS", .right), ("Stratus/client", .right), ("goal", .left),
    ])

    func render(header: [String], notes: [String]) -> String {
        var lines = header + [""]
        lines += Self.layout.markdownHeader
        var failures: [String] = []
        for row in rows {
            var goals: [String] = []
            if let goal = row.memoryGoalMiB {
                if case .success(let ours)? = row.stratus, let kib = ours.peakRSSKiB {
                    goals.append("RSS ≤ \(Int(goal)) MiB: \(Double(kib) / 1024 <= goal ? "met" : "**not met**")")
                } else {
                    goals.append("RSS ≤ \(Int(goal)) MiB: not measured")
                }
            }
            goals += row.stratusChecks
            lines.append(line(row.workload, row.stratusName, row.stratus, row.kind, ratio: "—", goals: goals))
            if case .failure(let failure)? = row.stratus { failures.append("\(row.workload), Stratus: \(failure)") }
            for peer in row.peers {
                var ratioText = "—"
                var goals: [String] = []
                if case .success(let ours)? = row.stratus, case .success(let theirs) = peer.result {
                    let ratio: Double =
                        switch row.kind {
                        case .rate: ours.value / theirs.value
                        case .duration: theirs.value / ours.value
                        }
                    ratioText = String(format: ratio >= 10 ? "%.0f×" : "%.2f×", ratio)
                    if let goal = peer.ratioGoal {
                        goals.append("≥ \(String(format: "%g", goal))×: \(ratio >= goal ? "met" : "**not met**")")
                    }
                } else if let goal = peer.ratioGoal {
                    goals.append("≥ \(String(format: "%g", goal))×: not measured")
                }
                goals += peer.checks
                lines.append(line("", peer.name, peer.result, row.kind, ratio: ratioText, goals: goals))
                if case .failure(let failure) = peer.result {
                    failures.append("\(row.workload), \(peer.name): \(failure)")
                }
            }
        }
        lines += [""] + notes
        if !failures.isEmpty {
            lines += ["", "FAILED:"] + failures.map { "- \($0)" }
        }
        return lines.joined(separator: "\n")
    }

    private func line(
        _ workload: String, _ client: String, _ result: Result<Figure, BenchmarkFailure>?, _ kind: ResultRow.Kind,
        ratio: String, goals: [String]
    ) -> String {
        var goals = goals
        if case .success(let figure)? = result, let server = figure.serverCPUSeconds, let wall = figure.wallSeconds,
            wall > 0, server / wall >= Self.serverBoundShare
        {
            goals.append("server-bound")
        }
        return Self.layout.markdownRow([
            workload, client, cell(result, kind), cpu(result), serverCPU(result), memory(result), ratio,
            goals.isEmpty ? "—" : goals.joined(separator: "; "),
        ])
    }

    private func cell(_ result: Result<Figure, BenchmarkFailure>?, _ kind: ResultRow.Kind) -> String {
        switch result {
        case nil: return "—"
        case .failure: return "FAILED"
        case .success(let figure):
            switch kind {
            case .rate(let unit):
                return String(format: figure.value >= 100 ? "%.0f" : "%.1f", figure.value) + " " + unit
            case .duration: return FigureText.seconds(figure.value)
            }
        }
    }

    private func cpu(_ result: Result<Figure, BenchmarkFailure>?) -> String {
        guard case .success(let figure)? = result, let seconds = figure.cpuSeconds else { return "—" }
        return FigureText.seconds(seconds)
    }

    private func serverCPU(_ result: Result<Figure, BenchmarkFailure>?) -> String {
        guard case .success(let figure)? = result, let seconds = figure.serverCPUSeconds else { return "—" }
        guard let wall = figure.wallSeconds, wall > 0 else { return FigureText.seconds(seconds) }
        return String(format: "%.2f s (%.0f%%)", seconds, 100 * seconds / wall)
    }

    private func memory(_ result: Result<Figure, BenchmarkFailure>?) -> String {
        guard case .success(let figure)? = result, let kib = figure.peakRSSKiB else { return "—" }
        return FigureText.mebibytes(kib: kib)
    }
}
