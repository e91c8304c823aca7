import FaultMatrix
import Foundation

// `stratus-fault-matrix [--concurrency N] [--only TEXT]`: runs the fault matrix against the
// mocks and prints it as a Markdown table, then each failed cell's reason. Exits 1 when a cell
// failed.
var concurrency = 4
var only: String?
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
    case "-h", "--help":
        print("""
            Usage: stratus-fault-matrix [--concurrency N] [--only TEXT]

            Runs every operation under every fault against the mocks and prints the matrix.
              --concurrency N  cells run at once (default 4)
              --only TEXT      only the cells whose name contains TEXT, such as "chunked upload × 503"
            """)
        exit(0)
    default:
        FileHandle.standardError.write(Data("stratus-fault-matrix: unknown argument '\(argument)'\n".utf8))
        exit(2)
    }
}

let started = ContinuousClock.now
let filter = only
let include: @Sendable (MatrixCell) -> Bool = { cell in filter.map { "\(cell)".contains($0) } ?? true }
var results = await FaultMatrix.runAll(provider: DropboxMatrixProvider(), concurrency: concurrency, where: include)
results += await FaultMatrix.runAll(provider: DriveMatrixProvider(), concurrency: concurrency, where: include)
print(FaultMatrix.table(results))
let failed = results.filter { !$0.1.passed }
print("\n\(results.count - failed.count) of \(results.count) cells passed in \(ContinuousClock.now - started).")
for (cell, result) in failed {
    print("FAIL \(cell): \(result.failure ?? "unknown")")
}
exit(failed.isEmpty ? 0 : 1)
