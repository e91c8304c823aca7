import Foundation
import StratusFileSystem

/// One finished child process: how long it ran, what it printed, its sampled peak memory.
struct ProcessOutcome: Sendable {
    /// The exit status, or the number of the signal that ended the process.
    var status: Int32
    var wallSeconds: Double
    /// The largest VmHWM read from `/proc/<pid>/status` while it ran (about every 10 ms).
    var sampledPeakRSSKiB: Int?
    /// User + system CPU of the process and everything it ran and waited for (`wait4`'s rusage,
    /// through `ChildProcess`), start-up included.
    var cpuSeconds: Double
    /// User + system CPU the servers (this process's other, long-running children: the mock,
    /// moto, Apache) used while it ran.
    var serverCPUSeconds: Double
    var standardOutput: String
    var standardError: String

    var report: ChildReport { ChildReport(parsing: standardOutput) }

    /// Fails with the end of standard error unless the process exited with 0.
    func checked(_ what: String) throws -> ProcessOutcome {
        guard status == 0 else {
            let tail = standardError.split(separator: "\n").suffix(6).joined(separator: "\n")
            throw BenchmarkFailure("\(what) exited with \(status): \(tail)")
        }
        return self
    }
}

/// Runs programs to their end with the package's `ChildProcess` (`posix_spawn`), output to files
/// in a log folder, sampling each one's peak memory while it runs.
struct MeasuredProcess {
    let logFolder: URL

    /// How often a running child's VmHWM is read.
    private static let sampleInterval = Duration.milliseconds(10)

    /// Runs `program` to its end; cancelling the task stops it (SIGTERM) and throws
    /// `CancellationError` once it has ended.
    func run(
        _ program: String, _ arguments: [String], environment extra: [String: String] = [:],
        removing removed: [String] = [], label: String
    ) async throws -> ProcessOutcome {
        let outputURL = logFolder.appendingPathComponent("\(label).out")
        let errorURL = logFolder.appendingPathComponent("\(label).err")
        let executable = try Self.resolve(program)
        var environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        for name in removed { environment[name] = nil }
        let serverCPUBefore = ProcessCPU.livingDescendants()
        let start = ContinuousClock.now
        let child = try ChildProcess(
            executable, arguments, environment: environment, input: .null, output: .file(outputURL.path),
            error: .file(errorURL.path))
        let sampler = Task { await Self.sampledPeakKiB(of: child) }
        let termination = await withTaskCancellationHandler {
            await child.wait()
        } onCancel: {
            child.terminate()
        }
        let elapsed = ContinuousClock.now - start
        let serverCPU = ProcessCPU.livingDescendants() - serverCPUBefore
        sampler.cancel()
        let peak = await sampler.value
        try Task.checkCancellation()
        let status: Int32 =
            switch termination {
            case .exited(let status): status
            case .signalled(let signal): signal
            }
        return ProcessOutcome(
            status: status,
            wallSeconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
            sampledPeakRSSKiB: peak, cpuSeconds: child.resourceUsage?.cpuSeconds ?? 0,
            serverCPUSeconds: max(0, serverCPU),
            standardOutput: (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "",
            standardError: (try? String(contentsOf: errorURL, encoding: .utf8)) ?? "")
    }

    /// The largest VmHWM of the child, read every ``sampleInterval`` until it is reaped. A sample
    /// counts only when the child was still unreaped after it was read, so it cannot be another
    /// process's that reused the ID.
    private static func sampledPeakKiB(of child: ChildProcess) async -> Int? {
        let statusFile = "/proc/\(child.processIdentifier)/status"
        var peak: Int?
        while !Task.isCancelled {
            let sample = PeakMemory.kib(statusFile: statusFile)
            guard child.isRunning else { break }
            if let sample { peak = max(peak ?? 0, sample) }
            try? await Task.sleep(for: sampleInterval)
        }
        return peak
    }

    /// A program's path: as given when it has a slash, else looked up on `PATH`.
    static func resolve(_ program: String) throws -> String {
        if program.contains("/") { return program }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(program)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw BenchmarkFailure("\(program) is not on PATH")
    }
}
