import Foundation
import StratusFileSystem

/// How a child process ended and what it printed.
struct ChildResult {
    /// The exit status, or `nil` when a signal ended the process.
    var exitStatus: Int32?
    /// The signal that ended the process, if one did.
    var signal: Int32?
    /// From just before the process was started until it was seen to have ended.
    var wallSeconds: Double
    /// User plus system CPU time the process used (from `wait4`, through `ChildProcess`).
    var cpuSeconds: Double
    /// The largest VmHWM seen while polling the process every few milliseconds.
    var sampledPeakRSSKiB: Int?
    var standardOutput: String
    var standardError: String

    var succeeded: Bool { exitStatus == 0 }

    /// "exit status 3" or "signal 9", with the end of standard error.
    var failureDescription: String {
        let how = exitStatus.map { "exit status \($0)" } ?? "signal \(signal ?? 0)"
        let detail = standardError.split(separator: "\n").suffix(5).joined(separator: "\n")
        return detail.isEmpty ? how : "\(how): \(detail)"
    }
}

/// Starts a program with the package's `ChildProcess` (`posix_spawn`), its standard output and
/// error going to files, and waits for it while sampling its peak memory.
enum MeasuredChild {
    /// How often the child's VmHWM is read while it runs.
    private static let sampleInterval = Duration.milliseconds(10)

    /// Runs `program` (looked up on `PATH` unless it contains a slash) to its end; cancelling the
    /// task stops the child (SIGTERM) and throws `CancellationError` once it has ended.
    /// - Parameters:
    ///   - logFolder: Where `<label>.out` and `<label>.err` are written.
    static func run(_ program: String, _ arguments: [String], label: String, logFolder: URL) async throws -> ChildResult
    {
        let outputFile = logFolder.appendingPathComponent("\(label).out")
        let errorFile = logFolder.appendingPathComponent("\(label).err")
        let start = ContinuousClock.now
        let child: ChildProcess
        do {
            child = try ChildProcess(
                program, arguments, input: .null, output: .file(outputFile.path), error: .file(errorFile.path))
        } catch {
            throw BenchmarkError("cannot start \(program): \(error)")
        }
        let sampler = Task { await sampledPeakKiB(of: child) }
        let termination = await withTaskCancellationHandler {
            await child.wait()
        } onCancel: {
            // The benchmark was interrupted: the child goes too.
            child.terminate()
        }
        let wallSeconds = (ContinuousClock.now - start).seconds
        sampler.cancel()
        let peak = await sampler.value
        try Task.checkCancellation()

        let (exitStatus, signal): (Int32?, Int32?) =
            switch termination {
            case .exited(let status): (status, nil)
            case .signalled(let signal): (nil, signal)
            }
        return ChildResult(
            exitStatus: exitStatus,
            signal: signal,
            wallSeconds: wallSeconds,
            cpuSeconds: child.resourceUsage?.cpuSeconds ?? 0,
            sampledPeakRSSKiB: peak,
            standardOutput: (try? String(contentsOf: outputFile, encoding: .utf8)) ?? "",
            standardError: (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
        )
    }

    /// The largest VmHWM of the child, read every ``sampleInterval`` until it is reaped. A sample
    /// counts only when the child was still unreaped after it was read, so it cannot be another
    /// process's that reused the ID.
    private static func sampledPeakKiB(of child: ChildProcess) async -> Int? {
        var peak: Int?
        while !Task.isCancelled {
            let sample = PeakMemory.highWaterMarkKiB(of: child.processIdentifier)
            guard child.isRunning else { break }
            if let sample { peak = max(peak ?? 0, sample) }
            try? await Task.sleep(for: sampleInterval)
        }
        return peak
    }
}
