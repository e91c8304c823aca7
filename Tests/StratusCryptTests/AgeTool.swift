import Foundation
import StratusFileSystem
import Testing

/// The `age` command-line tool, when installed: the interop tests run it. Under `CI=true` a
/// missing tool fails the tests instead of skipping them (CI installs the Debian package `age`).
enum AgeTool {
    static let path: String? = ["/usr/bin/age", "/usr/local/bin/age"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
    static let keygenPath: String? = ["/usr/bin/age-keygen", "/usr/local/bin/age-keygen"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Whether the interop tests run: the tool is there, or CI demands it (and they then fail).
    static var isRequired: Bool { path != nil || ProcessInfo.processInfo.environment["CI"] == "true" }

    /// Runs `age` with arguments, its standard output into a file if one is given; returns its
    /// exit status and standard error.
    static func run(_ arguments: [String], output: URL? = nil) async throws -> (status: Int32, error: String) {
        let tool = try #require(path, "the age tool is not installed (apt-get install -y age)")
        let result = try await ChildProcess.run(
            tool, arguments, output: output.map { .file($0.path) } ?? .collect(), timeout: .seconds(120))
        guard case .exited(let status) = result.termination else { return (-1, result.errorText) }
        return (status, result.errorText)
    }

    /// Runs `age-keygen -o file`; returns the public key it reports.
    static func keygen(to file: URL) async throws -> String {
        let tool = try #require(keygenPath, "age-keygen is not installed (apt-get install -y age)")
        let result = try await ChildProcess.run(tool, ["-o", file.path], timeout: .seconds(60))
        let line = try #require(result.errorText.split(separator: "\n").first { $0.hasPrefix("Public key: ") })
        return String(line.dropFirst("Public key: ".count))
    }
}
