import Foundation
import Stratus
import StratusDigest
import Synchronization

/// The fault matrix: every operation under every fault, each in a fresh mock, each cell
/// checking the end state, not just the answer.
///
/// A cell passes when the operation succeeded and:
/// - uploads: the remote file has the content's hash, the folder holds that one file and no
///   other, and the file has one version (no duplicate write);
/// - download: the local file has the content's hash and nothing else is in its folder (no
///   temporary file left behind); after a body cut midway, the retry asked for the rest with
///   `Range`;
/// - change feed: the change made after the token is reported;
/// - versions: both versions are listed with their sizes and hashes (an old version the
///   provider gives no hash, as OneDrive, by its size alone);
/// - restore: the file holds the old content and history grew by exactly one version;
/// - delete: the file is gone and its versions are still listed.
public enum FaultMatrix {
    /// Every cell of a provider, operations in order, each under every fault.
    public static func cells(provider: String) -> [MatrixCell] {
        MatrixOperation.allCases.filter { $0.applies(to: provider) }.flatMap { operation in
            MatrixFault.allCases.map { MatrixCell(provider: provider, operation: operation, fault: $0) }
        }
    }

    /// Runs one cell.
    /// - Parameters:
    ///   - cell: The operation and fault.
    ///   - provider: The provider whose mock and adapter to use.
    /// - Returns: Whether the cell passed and how many retries the fault cost.
    public static func run(_ cell: MatrixCell, provider: some MatrixProvider) async -> CellResult {
        let outcome = Outcome()
        do {
            try await provider.withHarness { harness in
                let retries = try await CellRun(cell: cell, harness: harness).run()
                outcome.set(CellResult(passed: true, retries: retries))
            }
            return outcome.value ?? CellResult(passed: false, retries: 0, failure: "the cell did not run")
        } catch {
            return CellResult(passed: false, retries: 0, failure: "\(error)")
        }
    }

    /// Runs the cells of a provider, `concurrency` at a time, in cell order.
    /// - Parameters:
    ///   - provider: The provider.
    ///   - concurrency: How many cells run at once.
    ///   - isIncluded: Which cells to run; all by default.
    public static func runAll(
        provider: some MatrixProvider,
        concurrency: Int = 4,
        where isIncluded: @Sendable (MatrixCell) -> Bool = { _ in true }
    ) async -> [(MatrixCell, CellResult)] {
        let cells = cells(provider: provider.name).filter(isIncluded)
        var results = [CellResult?](repeating: nil, count: cells.count)
        await withTaskGroup(of: (Int, CellResult).self) { group in
            var next = 0
            func startNext() {
                guard next < cells.count else { return }
                let index = next
                next += 1
                group.addTask { (index, await run(cells[index], provider: provider)) }
            }
            for _ in 0..<max(1, concurrency) { startNext() }
            for await (index, result) in group {
                results[index] = result
                startNext()
            }
        }
        return zip(cells, results).map { ($0, $1 ?? CellResult(passed: false, retries: 0, failure: "not run")) }
    }

    /// The results as a Markdown table: operations down, faults across.
    public static func table(_ results: [(MatrixCell, CellResult)]) -> String {
        let faults = MatrixFault.allCases
        var lines = [
            "| provider · operation | " + faults.map(\.rawValue).joined(separator: " | ") + " |",
            "|---|" + String(repeating: "---|", count: faults.count),
        ]
        var rows: [(String, [MatrixFault: CellResult])] = []
        for (cell, result) in results {
            let label = "\(cell.provider) · \(cell.operation.rawValue)"
            if rows.last?.0 != label { rows.append((label, [:])) }
            rows[rows.count - 1].1[cell.fault] = result
        }
        for (label, cells) in rows {
            lines.append("| \(label) | " + faults.map { cells[$0]?.summary ?? "—" }.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }
}

/// A box for the result a harness body produces.
private final class Outcome: Sendable {
    private let storage = Mutex<CellResult?>(nil)
    var value: CellResult? { storage.withLock { $0 } }
    func set(_ result: CellResult) { storage.withLock { $0 = result } }
}
