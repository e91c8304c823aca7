import Foundation

/// One finished child process: how long it ran, what it printed, its sampled peak memory.
struct ProcessOutcome: Sendable {
    var status: Int32
    var wallSeconds: Double
    /// The largest VmHWM read from `/proc/<pid>/status` while it ran (about every 10 ms).
    var sampledPeakRSSKiB: Int?
    /// User + system CPU of the process and everything it ran (`RUSAGE_CHILDREN` before and
    /// after; the benchmark runs one measured process at a time), start-up included.
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

/// Runs programs to their end with Foundation's `Process`, output to files in a log folder.
struct MeasuredProcess {
    let logFolder: URL

    func run(
        _ program: String, _ arguments: [String], environment extra: [String: String] = [:],
        removing removed: [String] = [], label: String
    ) async throws -> ProcessOutcome {
        let outputURL = logFolder.appendingPathComponent("\(label).out")
        let errorURL = logFolder.appendingPathComponent("\(label).err")
        guard FileManager.default.createFile(atPath: outputURL.path, contents: nil) else {
            throw BenchmarkFailure("cannot create \(outputURL.path)")
        }
        guard FileManager.default.createFile(atPath: errorURL.path, contents: nil) else {
            throw BenchmarkFailure("cannot create \(errorURL.path)")
        }
        let output = try FileHandle(forWritingTo: outputURL)
        let error = try FileHandle(forWritingTo: errorURL)
        defer {
            try? output.close()
            try? error.close()
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Self.resolve(program))
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        for name in removed { environment[name] = nil }
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = error
        let serverCPUBefore = ProcessCPU.livingDescendants()
        let cpuBefore = ProcessCPU.reapedChildren()
        let start = ContinuousClock.now
        try process.run()
        let statusFile = "/proc/\(process.processIdentifier)/status"
        var peak: Int?
        while process.isRunning {
            if let sample = PeakMemory.kib(statusFile: statusFile) { peak = max(peak ?? 0, sample) }
            do {
                try await Task.sleep(for: .milliseconds(10))
            } catch {
                process.terminate()
                process.waitUntilExit()
                throw error
            }
        }
        process.waitUntilExit()
        let elapsed = ContinuousClock.now - start
        let cpu = ProcessCPU.reapedChildren() - cpuBefore
        let serverCPU = ProcessCPU.livingDescendants() - serverCPUBefore
        return ProcessOutcome(
            status: process.terminationStatus,
            wallSeconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
            sampledPeakRSSKiB: peak, cpuSeconds: cpu, serverCPUSeconds: max(0, serverCPU),
            standardOutput: (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "",
            standardError: (try? String(contentsOf: errorURL, encoding: .utf8)) ?? "")
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
