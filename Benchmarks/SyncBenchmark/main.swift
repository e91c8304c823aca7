import BenchmarkSupport
import Foundation
import Stratus
import StratusDropbox
import StratusLocal
import StratusSync
import SyncSimulation

// stratus-sync-benchmark: StratusSync's first push, a second device's first pull and an
// incremental sync, on `local` and on the Dropbox mock (a `stratus-mock` process of its own),
// next to the same bytes uploaded directly through the same service with the same concurrency
// (what `stratus put` does per file). Prints one Markdown table.

let options = try BenchmarkOptions(CommandLine.arguments.dropFirst())
let work = FileManager.default.temporaryDirectory.appending(path: "stratus-sync-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: work) }

print("# StratusSync benchmark")
let machine = MachineInfo.current()
print("")
print(
    "\(options.records) records of ~1 KiB, \(options.files) of them with a \(options.fileKiB) KiB file; \(options.changes) changes for the incremental sync; \(options.concurrency) transfers at once. \(machine.processors) cores, load average \(machine.loadAverage)."
)
print("")
for line in ReportTables.phases.markdownHeader { print(line) }
let inputs = try InputFiles(count: options.files, kib: options.fileKiB, folder: work.appending(path: "inputs"))
var ratios: [String] = []
var propagation: [String] = []
for remote in options.remotes {
    let folder = work.appending(path: remote)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let endpoint = try await RemoteEndpoint.start(remote, folder: folder, mock: options.mockExecutable)
    defer {
        endpoint.stop()
        // Each remote's rows reach a file as soon as they are made (fflush(nil) flushes stdout).
        fflush(nil)
    }
    propagation += try await PropagationBenchmark(
        options: options, endpoint: endpoint, folder: folder, remote: remote
    ).run()
    let service = ObservedService(try endpoint.makeService(root: "sync"))
    let result: SyncBenchmark.Result
    do {
        result = try await SyncBenchmark(
            options: options, inputs: inputs, service: service, folder: folder, remote: remote
        ).run()
    } catch {
        ratios.append("\(remote): failed: \(error)")
        continue
    }
    let peer = ObservedService(try endpoint.makeService(root: "peer"))
    let direct: DirectUpload.Result
    do {
        direct = try await DirectUpload.run(
            service: peer, inputs: inputs, records: options.records, concurrency: options.concurrency)
    } catch {
        ratios.append("\(remote): direct uploads failed: \(error)")
        continue
    }
    print(direct.row(remote: remote, phase: "peer: direct uploads of the same items"))
    let ratio = result.firstPushItemsPerSecond / direct.itemsPerSecond
    ratios.append(
        "\(remote): first push \(String(format: "%.0f", result.firstPushItemsPerSecond)) items/s vs direct uploads \(String(format: "%.0f", direct.itemsPerSecond)) items/s = \(String(format: "%.2f", ratio))× (goal ≥ 0.50×: \(ratio >= 0.5 ? "met" : "not met")); incremental sync of \(options.changes) changes: \(result.incrementalRequests) requests for the writer and \(result.incrementalPullRequests) for the reader (O(changes): \(result.incrementalRequests + result.incrementalPullRequests <= 12 * options.changes + 20 ? "yes" : "no"))"
    )
}
print("")
for line in ratios { print("- " + line) }
print("")
print("## Automatic sync")
print("")
print(
    "Two devices with automatic sync (default settings: 0.5 s debounce) and no sync() call; A saves \(options.propagationChanges) times, one after another, and each save is timed until B's changes() delivers it (minus the debounce). Then, after a warm-up (twice the longest interval of a polling schedule, else 5 s), \(options.idleSeconds) s with nothing to do: requests per device per minute and the CPU of both devices (the benchmark process)."
)
print("")
for line in ReportTables.propagation.markdownHeader { print(line) }
for line in propagation { print(line) }
if let peakKiB = PeakMemory.ownKiB() {
    print(
        "- peak RSS of the benchmark process (all remotes, Stratus and its SQLite): \(FigureText.mebibytes(kib: peakKiB)) (goal ≤ 128 MiB: \(peakKiB <= 128 * 1024 ? "met" : "not met"))"
    )
} else {
    print("- peak RSS of the benchmark process: not read (no VmHWM in /proc/self/status)")
}
