import StratusFileSystem

/// One finished child process: how it ended, how long it ran, what it and the servers used, what
/// it printed.
package struct ProcessOutcome: Sendable {
    /// How the process ended.
    package var termination: ChildProcess.Termination
    /// From just before the process was started until it was seen to have ended.
    package var wallSeconds: Double
    /// The largest VmHWM read from `/proc/<pid>/status` while it ran (about every 10 ms).
    package var sampledPeakRSSKiB: Int?
    /// User + system CPU of the process and everything it ran and waited for (`wait4`'s rusage,
    /// through `ChildProcess`), start-up included.
    package var cpuSeconds: Double
    /// User + system CPU this process's other, long-running children (the servers: a mock, moto,
    /// Apache) used while it ran.
    package var serverCPUSeconds: Double
    /// What it wrote on standard output.
    package var standardOutput: String
    /// What it wrote on standard error.
    package var standardError: String

    /// Whether it exited with status 0.
    package var succeeded: Bool { termination.isSuccess }

    /// The `key=value` report it printed on standard output.
    package var report: ChildReport { ChildReport(parsing: standardOutput) }

    /// "exit status 3" or "signal 9", with the last lines of standard error.
    package var failureDescription: String {
        let detail = standardError.split(separator: "\n").suffix(6).joined(separator: "\n")
        return detail.isEmpty ? termination.description : "\(termination): \(detail)"
    }

    /// Fails with ``failureDescription`` unless the process exited with status 0.
    /// - Parameter what: The process's name in the message, such as "curl".
    package func checked(_ what: String) throws(BenchmarkFailure) -> ProcessOutcome {
        guard succeeded else { throw BenchmarkFailure("\(what) ended with \(failureDescription)") }
        return self
    }
}
