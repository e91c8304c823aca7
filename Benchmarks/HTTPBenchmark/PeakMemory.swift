import Foundation

/// Peak resident memory (VmHWM) from `/proc`.
///
/// `wait4`'s `ru_maxrss` is not used: a child (started with `posix_spawn` or `fork`) keeps the
/// parent's high-water mark across `exec`, which would count the server's memory against it.
enum PeakMemory {
    /// This process's peak resident memory in KiB.
    static func ownHighWaterMarkKiB() -> Int? {
        highWaterMarkKiB(statusFile: "/proc/self/status")
    }

    /// Another process's peak resident memory in KiB, while it runs.
    static func highWaterMarkKiB(of pid: pid_t) -> Int? {
        highWaterMarkKiB(statusFile: "/proc/\(pid)/status")
    }

    private static func highWaterMarkKiB(statusFile: String) -> Int? {
        guard let status = try? String(contentsOfFile: statusFile, encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            // "VmHWM:     12345 kB"
            return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        }
        return nil
    }
}
