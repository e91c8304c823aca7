import Foundation

/// Peak resident memory (VmHWM) from `/proc/<pid>/status`, in KiB.
///
/// `wait4`'s `ru_maxrss` is not used: on Linux a child started with `posix_spawn` (or `fork`)
/// keeps its parent's high-water mark across `exec`, which would count the parent's memory
/// against it.
package enum PeakMemory {
    /// This process's peak resident memory in KiB.
    package static func ownKiB() -> Int? {
        kib(statusFile: "/proc/self/status")
    }

    /// Another process's peak resident memory in KiB, while it runs (`nil` when it cannot be
    /// read; a caller that must not read another process's after the ID is reused checks that
    /// the process still runs after reading).
    package static func kib(of processIdentifier: pid_t) -> Int? {
        kib(statusFile: "/proc/\(processIdentifier)/status")
    }

    private static func kib(statusFile: String) -> Int? {
        guard let status = try? String(contentsOfFile: statusFile, encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            // "VmHWM:     12345 kB"
            return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        }
        return nil
    }
}
