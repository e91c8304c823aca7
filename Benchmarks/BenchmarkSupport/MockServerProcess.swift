import Foundation
import StratusFileSystem

/// A `stratus-mock` serving one provider in a process of its own on a free loopback port, so that
/// neither the clients nor the benchmark share its memory or threads; what a client needs to reach
/// it comes from the banner it prints.
package final class MockServerProcess: Sendable {
    /// The mock's process.
    package let process: ChildProcess
    /// The banner: the base URL, the tokens, the CA certificate and the provider's own lines.
    package let banner: String

    /// Starts `stratus-mock MODE --port 0 --token-ttl 86400 --data-dir FOLDER --in-memory` with
    /// `extraArguments` (such as `--tls`) and waits, up to 30 s, for its whole banner.
    /// `--in-memory`: the figures measure the clients, not the mock saving its metadata.
    /// - Parameters:
    ///   - mode: The provider, such as `dropbox`.
    ///   - log: The file the mock's standard output and error go to.
    package init(
        executable: String, mode: String, dataDirectory: URL, log: URL, extraArguments: [String] = []
    ) async throws {
        let process = try ChildProcess(
            executable,
            [mode, "--port", "0", "--token-ttl", "86400", "--data-dir", dataDirectory.path, "--in-memory"]
                + extraArguments,
            input: .null, output: .file(log.path), error: .file(log.path))
        let banner = try await process.waitForLog(log, tries: 300) { $0.contains("Press Ctrl-C") }
        guard banner.contains("Press Ctrl-C") else {
            process.terminate()
            throw BenchmarkFailure("stratus-mock \(mode) did not start:\n\(banner)")
        }
        self.process = process
        self.banner = banner
    }

    /// The word after `label` on the first banner line that has it: `value(after: "listening on ")`
    /// is the base URL, `value(after: "access token:")` the token.
    package func value(after label: String) -> String? {
        for line in banner.split(separator: "\n") {
            guard let range = line.range(of: label) else { continue }
            return line[range.upperBound...].split(separator: " ").first.map(String.init)
        }
        return nil
    }

    /// The rest of the first banner line that has `label`, such as Dropbox's "write contention:".
    package func line(after label: String) -> String? {
        banner.split(separator: "\n").lazy
            .compactMap { line in line.range(of: label).map { line[$0.upperBound...] } }
            .first.map { String($0).trimmingCharacters(in: .whitespaces) }
    }

    /// The mock's peak memory so far, in KiB; `nil` once it has ended.
    package var peakRSSKiB: Int? {
        let sample = PeakMemory.kib(of: process.processIdentifier)
        return process.isRunning ? sample : nil
    }

    /// Stops the mock (SIGTERM) and waits for it to end.
    package func stop() {
        if process.send(SIGTERM) {
            _ = process.waitBlocking()
        }
    }
}
