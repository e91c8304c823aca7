import BenchmarkSupport
import Foundation
import StratusHTTP

/// The versions the figures depend on beside the machine: libcurl (StratusHTTP's), the curl tool
/// and Swift.
struct Toolchain {
    var libcurl: String
    var curlTool: String
    var swift: String

    /// Gathers the versions; fails when the curl tool cannot be run.
    static func collect(logFolder: URL) async throws -> Toolchain {
        let processes = MeasuredProcess(logFolder: logFolder)
        let curl = try await processes.run("curl", ["--version"], label: "curl-version")
        guard curl.succeeded, let curlTool = firstLine(curl.standardOutput) else {
            throw BenchmarkFailure(
                "`curl --version` failed (\(curl.failureDescription)); the benchmark needs the curl tool on PATH")
        }
        let swift = try? await processes.run("swift", ["--version"], label: "swift-version")
        let swiftVersion = swift.flatMap {
            $0.succeeded ? firstLine($0.standardOutput) ?? firstLine($0.standardError) : nil
        }
        return Toolchain(
            libcurl: StratusHTTPClient.curlVersion, curlTool: curlTool,
            swift: swiftVersion ?? "unknown (`swift --version` did not run)")
    }

    private static func firstLine(_ text: String) -> String? {
        text.split(separator: "\n").first.map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
