import BenchmarkSupport
import Foundation

/// The benchmark: prepares the files, starts the server, runs every tool on every workload,
/// checks what arrived and prints the report.
struct BenchmarkRunner {
    let options: BenchmarkOptions

    /// - Returns: Whether every measurement ran and passed its checks.
    func run() async throws -> Bool {
        let executable = try Self.ownExecutablePath()
        let workspace = try Workspace(bytesNeeded: 2 * options.sizeBytes + 64 * 1_048_576)
        defer { workspace.remove() }
        let logs = workspace.file("logs")
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)

        let machine = MachineInfo.current()
        let toolchain = try await Toolchain.collect(logFolder: logs)
        progress("writing the \(options.sizeMiB) MiB upload source in \(workspace.url.path)")
        let source = workspace.file("upload-source.bin")
        try PatternContent.writeFile(at: source, size: options.sizeBytes)
        let expectedDigest = PatternContent.sha256Hex(size: options.sizeBytes)
        try Task.checkCancellation()

        let counters = ServerCounters()
        var results = BenchmarkResults()
        try await BenchmarkServer.run(counters: counters, smallBodyBytes: BenchmarkOptions.smallBodyBytes) { baseURL in
            let measurer = ToolMeasurer(
                options: options, executable: executable, workspace: workspace, logs: logs, baseURL: baseURL,
                source: source, expectedDigest: expectedDigest, counters: counters)
            for round in 1...options.rounds {
                for workload in Workload.allCases {
                    for tool in Tool.allCases {
                        try Task.checkCancellation()
                        progress(
                            "round \(round)/\(options.rounds): \(ResultTable.describe(workload, options)) with \(tool.rawValue)"
                        )
                        let outcome = try await measurer.measure(workload, with: tool, round: round)
                        if case .failed(let reason) = outcome { progress("  failed: \(reason)") }
                        results.record(outcome, workload: workload, tool: tool)
                    }
                }
            }
        }
        print(ResultTable(options: options, machine: machine, toolchain: toolchain, results: results).render())
        return results.allMeasured
    }

    private func progress(_ message: String) {
        StandardError.writeLine("[benchmark] \(message)")
    }

    private static func ownExecutablePath() throws -> String {
        let path = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        guard path.hasPrefix("/") else {
            throw BenchmarkFailure("cannot find the benchmark's own executable to start child processes")
        }
        return path
    }
}
