import Foundation

/// What the figures were measured on, from `ProcessInfo` and `/proc`.
package struct MachineInfo: Sendable {
    /// The processors this process may run on.
    package var processors: Int
    /// The first "model name" of `/proc/cpuinfo`.
    package var cpuModel: String
    /// Physical memory, in GiB.
    package var memoryGiB: Double
    /// The kernel's release (`/proc/sys/kernel/osrelease`).
    package var kernel: String
    /// The 1, 5 and 15 minute load averages ("1.23 0.98 0.50"): other work on the machine skews
    /// the figures.
    package var loadAverage: String

    /// The machine as it is now.
    package static func current() -> MachineInfo {
        MachineInfo(
            processors: ProcessInfo.processInfo.activeProcessorCount,
            cpuModel: cpuModel() ?? "unknown CPU",
            memoryGiB: Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824,
            kernel: firstLine(of: "/proc/sys/kernel/osrelease") ?? "unknown",
            loadAverage: firstLine(of: "/proc/loadavg").map {
                $0.split(separator: " ").prefix(3).joined(separator: " ")
            }
                ?? "unknown"
        )
    }

    /// One line: "2 cores, AMD EPYC 7B13, 7.8 GiB RAM, Linux 6.1.0-18-amd64, load average 0.41
    /// 0.30 0.22 at start".
    package var summary: String {
        "\(processors) cores, \(cpuModel), \(String(format: "%.1f", memoryGiB)) GiB RAM, Linux \(kernel), "
            + "load average \(loadAverage) at start"
    }

    private static func cpuModel() -> String? {
        guard let cpuinfo = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return nil }
        for line in cpuinfo.split(separator: "\n") where line.hasPrefix("model name") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    private static func firstLine(of file: String) -> String? {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
        return text.split(separator: "\n").first.map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
