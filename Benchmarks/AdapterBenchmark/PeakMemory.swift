import Foundation

/// Peak resident memory (VmHWM) from `/proc/<pid>/status`, in KiB. (`ru_maxrss` is not used:
/// on Linux a spawned child inherits its parent's high-water mark across `exec`.)
enum PeakMemory {
    static func kib(statusFile: String = "/proc/self/status") -> Int? {
        guard let status = try? String(contentsOfFile: statusFile, encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        }
        return nil
    }
}
