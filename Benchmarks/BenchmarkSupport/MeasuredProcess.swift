import Foundation
import StratusFileSystem

/// Runs programs to their end with the package's `ChildProcess` (`posix_spawn`), their standard
/// output and error going to files of a log folder, sampling each one's peak memory while it runs.
package struct MeasuredProcess: Sendable {
    /// Where `<label>.out` and `<label>.err` are written.
    package let logFolder: URL

    /// How often a running child's VmHWM is read.
    private static let sampleInterval = Duration.milliseconds(10)

    /// Runs with the output files in `logFolder`.
    package init(logFolder: URL) {
        self.logFolder = logFolder
    }

    /// Runs `program` (looked up on `PATH` unless it contains a slash) to its end; cancelling the
    /// task stops the child (SIGTERM) and throws `CancellationError` once it has ended.
    /// - Parameters:
    ///   - environment: Variables added to (or replacing) this process's own.
    ///   - removed: Variables of this process's environment the child does not get.
    ///   - label: The output files' name, `<label>.out` and `<label>.err`.
    package func run(
        _ program: String, _ arguments: [String], environment extra: [String: String] = [:],
        removing removed: [String] = [], label: String
    ) async throws -> ProcessOutcome {
        let outputURL = logFolder.appendingPathComponent("\(label).out")
        let errorURL = logFolder.appendingPathComponent("\(label).err")
        var environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        for name in removed { environment[name] = nil }
        let serverCPUBefore = CPUTime.livingDescendants()
        let start = ContinuousClock.now
        let child: ChildProcess
        do {
            child = try ChildProcess(
                program, arguments, environment: environment, input: .null, output: .file(outputURL.path),
                error: .file(errorURL.path))
        } catch {
            throw BenchmarkFailure("cannot start \(program): \(error)")
        }
        let sampler = Task { await Self.sampledPeakKiB(of: child) }
        let termination = await withTaskCancellationHandler {
            await child.wait()
        } onCancel: {
            // The benchmark was interrupted: the child goes too.
            child.terminate()
        }
        let wallSeconds = (ContinuousClock.now - start).seconds
        let serverCPU = CPUTime.livingDescendants() - serverCPUBefore
        sampler.cancel()
        let peak = await sampler.value
        try Task.checkCancellation()
        return ProcessOutcome(
            termination: termination, wallSeconds: wallSeconds, sampledPeakRSSKiB: peak,
            cpuSeconds: child.resourceUsage?.cpuSeconds ?? 0, serverCPUSeconds: max(0, serverCPU),
            standardOutput: (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "",
            standardError: (try? String(contentsOf: errorURL, encoding: .utf8)) ?? "")
    }

    /// The largest VmHWM of the child, read every ``sampleInterval`` until it is reaped. A sample
    /// counts only when the child was still unreaped after it was read, so it cannot be another
    /// process's that reused the ID.
    private static func sampledPeakKiB(of child: ChildProcess) async -> Int? {
        var peak: Int?
        while !Task.isCancelled {
            let sample = PeakMemory.kib(of: child.processIdentifier)
            guard child.isRunning else { break }
            if let sample { peak = max(peak ?? 0, sample) }
            try? await Task.sleep(for: sampleInterval)
        }
        return peak
    }

    /// A program's path: as given when it has a slash, else looked up on `PATH`.
    package static func resolve(_ program: String) throws(BenchmarkFailure) -> String {
        if program.contains("/") { return program }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(program)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw BenchmarkFailure("\(program) is not on PATH")
    }
}
