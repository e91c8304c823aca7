import FaultMatrix
import Foundation

// `stratus-fault-matrix [--concurrency N] [--only TEXT]`: runs the fault matrix against the
// mocks and prints it as a Markdown table, then each failed cell's reason. Exits 1 when a cell
// failed.
var concurrency = 4
var only: String?
var loadSeconds: Int?
var loadClients = 200
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--concurrency":
        guard let text = arguments.popFirst(), let value = Int(text), value > 0 else {
            FileHandle.standardError.write(Data("stratus-fault-matrix: --concurrency needs a positive number\n".utf8))
            exit(2)
        }
        concurrency = value
    case "--only":
        only = arguments.popFirst()
    case "--load":
        guard let text = arguments.popFirst(), let value = Int(text), value > 0 else {
            FileHandle.standardError.write(
                Data("stratus-fault-matrix: --load needs a positive number of seconds\n".utf8))
            exit(2)
        }
        loadSeconds = value
    case "--clients":
        guard let text = arguments.popFirst(), let value = Int(text), value > 0 else {
            FileHandle.standardError.write(Data("stratus-fault-matrix: --clients needs a positive number\n".utf8))
            exit(2)
        }
        loadClients = value
    case "-h", "--help":
        print(
            """
            Usage: stratus-fault-matrix [--concurrency N] [--only TEXT]
                   stratus-fault-matrix --load SECONDS [--clients N]

            Runs every operation under every fault against the mocks and prints the matrix.
              --concurrency N  cells run at once (default 4)
              --only TEXT      only the cells whose name contains TEXT, such as "chunked upload × 503"
              --load SECONDS   instead, a load run: N clients (default 200) against one mock of each
                               provider, mixed operations, 1% of requests answered 503; prints
                               calls and latencies, and fails if any call failed
            """)
        exit(0)
    default:
        FileHandle.standardError.write(Data("stratus-fault-matrix: unknown argument '\(argument)'\n".utf8))
        exit(2)
    }
}

if let loadSeconds {
    var failed = false
    let providers: [any MatrixProvider] = [DropboxMatrixProvider(), DriveMatrixProvider()]
    for provider in providers {
        let report = try await LoadRun.run(
            provider: provider, clients: loadClients, duration: .seconds(loadSeconds), faultShare: 0.01)
        let total = report.calls.values.reduce(0, +)
        print(
            "\n\(provider.name): \(loadClients) clients for \(report.duration): \(total) calls, \(report.failures.count) failed, \(report.injected) faults injected\n"
        )
        print(report.table)
        for failure in report.failures where !failure.isEmpty { print("FAIL \(failure)") }
        failed = failed || !report.failures.isEmpty
    }
    exit(failed ? 1 : 0)
}

let started = ContinuousClock.now
let filter = only
let include: @Sendable (MatrixCell) -> Bool = { cell in filter.map { "\(cell)".contains($0) } ?? true }
var results = await FaultMatrix.runAll(provider: DropboxMatrixProvider(), concurrency: concurrency, where: include)
results += await FaultMatrix.runAll(provider: DriveMatrixProvider(), concurrency: concurrency, where: include)
results += await FaultMatrix.runAll(provider: NextcloudMatrixProvider(), concurrency: concurrency, where: include)
results += await FaultMatrix.runAll(provider: OneDriveMatrixProvider(), concurrency: concurrency, where: include)
print(FaultMatrix.table(results))
let failed = results.filter { !$0.1.passed }
print("\n\(results.count - failed.count) of \(results.count) cells passed in \(ContinuousClock.now - started).")
for (cell, result) in failed {
    print("FAIL \(cell): \(result.failure ?? "unknown")")
}
exit(failed.isEmpty ? 0 : 1)
