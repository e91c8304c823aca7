import Foundation
import StratusHTTP

/// What the numbers were measured on.
struct MachineInfo {
    var processors: Int
    var cpuModel: String
    var memoryGiB: Double
    var kernel: String
    /// The 1, 5 and 15 minute load averages: other work on the machine skews the figures.
    var loadAverage: String
    var libcurl: String
    var curlTool: String
    var swift: String

    /// Gathers the facts; fails when the curl tool cannot be run.
    static func collect(logFolder: URL) async throws -> MachineInfo {
        let curl = try await MeasuredChild.run("curl", ["--version"], label: "curl-version", logFolder: logFolder)
        guard curl.succeeded, let curlTool = firstLine(curl.standardOutput) else {
            throw BenchmarkError(
                "`curl --version` failed (\(curl.failureDescription)); the benchmark needs the curl tool on PATH")
        }
        let swift = try? await MeasuredChild.run("swift", ["--version"], label: "swift-version", logFolder: logFolder)
        let swiftVersion = swift.flatMap {
            $0.succeeded ? firstLine($0.standardOutput) ?? firstLine($0.standardError) : nil
        }
        return MachineInfo(
            processors: ProcessInfo.processInfo.activeProcessorCount,
            cpuModel: cpuModel() ?? "unknown",
            memoryGiB: Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824,
            kernel: firstLine((try? String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8)) ?? "")
                ?? "unknown",
            loadAverage: loadAverage() ?? "unknown",
            libcurl: StratusHTTPClient.curlVersion,
            curlTool: curlTool,
            swift: swiftVersion ?? "unknown (`swift --version` did not run)"
        )
    }

    /// The first "model name" in /proc/cpuinfo.
    private static func cpuModel() -> String? {
        guard let cpuinfo = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return nil }
        for line in cpuinfo.split(separator: "\n") where line.hasPrefix("model name") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    /// "1.23 0.98 0.50" from /proc/loadavg.
    private static func loadAverage() -> String? {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return nil }
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }

    private static func firstLine(_ text: String) -> String? {
        text.split(separator: "\n").first.map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
