import BenchmarkSupport
import Foundation
import StratusFileSystem

/// rclone (Debian's `rclone`) reaching the same server as Stratus, configured only through its
/// environment and command line: S3 and WebDAV through `RCLONE_CONFIG_BENCH_*` (a remote named
/// `bench`), `RCLONE_CONFIG` naming a file in the workspace that is never written; Dropbox through
/// a configuration file of its own in the workspace (`DropboxRclone`). No configuration in the
/// user's home is read. Every other setting is rclone's default unless a call says otherwise.
struct RcloneClient {
    let processes: MeasuredProcess
    let provider: Provider
    let environment: [String: String]
    /// Variables taken out of rclone's environment.
    var removed = ["AWS_CA_BUNDLE"]

    /// - Parameters:
    ///   - remoteSettings: The remote's settings, by rclone option name (`type`, `provider`, ...).
    init(processes: MeasuredProcess, provider: Provider, workspace: URL, remoteSettings: [String: String]) {
        self.processes = processes
        self.provider = provider
        var environment = ["RCLONE_CONFIG": workspace.appendingPathComponent("rclone-unused.conf").path]
        for (name, value) in remoteSettings { environment["RCLONE_CONFIG_BENCH_\(name.uppercased())"] = value }
        self.environment = environment
    }

    /// rclone with exactly this environment added (`RCLONE_CONFIG` among it) and `removed` taken out.
    init(processes: MeasuredProcess, provider: Provider, environment: [String: String], removed: [String]) {
        self.processes = processes
        self.provider = provider
        self.environment = environment
        self.removed = removed
    }

    /// `bench:PATH`.
    static func remote(_ path: String) -> String { "bench:" + path }

    func run(_ arguments: [String], label: String) async -> Result<ProcessOutcome, BenchmarkFailure> {
        do {
            return .success(
                try await processes.run(
                    // The AWS SDK inside rclone fails on any AWS_CA_BUNDLE over plain HTTP; the servers here need none.
                    "rclone", arguments, environment: environment, removing: removed,
                    label: "\(provider.rawValue)-rclone-\(label)"
                ).checked("rclone"))
        } catch {
            Progress.say("  rclone \(label) failed: \(error)")
            return .failure(error as? BenchmarkFailure ?? BenchmarkFailure("\(error)"))
        }
    }

    /// `rclone obscure -`: the form rclone wants a password in.
    static func obscure(_ password: String) async throws -> String {
        let result = try await ChildProcess.run(
            MeasuredProcess.resolve("rclone"), ["obscure", "-"], input: .bytes(Array(password.utf8)),
            output: .collect(), error: .null)
        let text = result.outputText.trimmingCharacters(in: .whitespacesAndNewlines)
        guard result.termination.isSuccess, !text.isEmpty else { throw BenchmarkFailure("rclone obscure failed") }
        return text
    }
}
