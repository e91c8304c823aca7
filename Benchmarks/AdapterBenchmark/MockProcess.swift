import BenchmarkSupport
import Foundation
import StratusFileSystem

/// A `stratus-mock` serving HTTPS in a process of its own, so that neither the clients nor the
/// parent share its memory or threads.
final class MockProcess {
    let endpoint: MockEndpoint
    /// Drive's root folder id ("My Drive"), from the banner.
    let rootFolderID: String?
    /// Dropbox: the banner's "write contention:" (`on (...)` or `off`).
    let writeContention: String?
    let process: ChildProcess

    /// Starts the mock (with `--tls` when the provider's is served over HTTPS) and waits (up to
    /// 30 s) for its banner. The Dropbox mock has its write contention on (its default) unless
    /// `extraArguments` says `--no-write-contention`.
    /// - Parameters:
    ///   - extraArguments: More options, such as `--no-write-contention` or `--tls-host NAME`.
    ///   - logName: The log file's name, `mock-<logName>.log` (default: the provider's).
    init(
        _ provider: Provider, executable: String, dataDirectory: URL, logFolder: URL, extraArguments: [String] = [],
        logName: String? = nil
    ) async throws {
        let log = logFolder.appendingPathComponent("mock-\(logName ?? provider.rawValue).log")
        let process = try ChildProcess(
            executable,
            // --in-memory: the rows measure the clients, not the mock saving its metadata.
            [provider.rawValue, "--port", "0", "--token-ttl", "86400", "--data-dir", dataDirectory.path, "--in-memory"]
                + (provider.servesTLS ? ["--tls"] : []) + extraArguments,
            input: .null, output: .file(log.path), error: .file(log.path))
        self.process = process

        let banner = try await process.waitForLog(log, tries: 300) { $0.contains("Press Ctrl-C") }
        func value(after label: String) -> String? {
            for line in banner.split(separator: "\n") {
                guard let range = line.range(of: label) else { continue }
                return line[range.upperBound...].split(separator: " ").first.map(String.init)
            }
            return nil
        }
        let ca = value(after: "CA certificate:")
        guard let base = value(after: "listening on "), let token = value(after: "access token:"),
            ca != nil || !provider.servesTLS
        else {
            process.terminate()
            throw BenchmarkFailure("stratus-mock \(provider.rawValue) did not start:\n\(banner)")
        }
        endpoint = MockEndpoint(provider: provider, baseURL: base, accessToken: token, caFile: ca ?? "")
        rootFolderID = value(after: "root folder id:")
        writeContention = banner.split(separator: "\n").lazy
            .compactMap { line in line.range(of: "write contention:").map { line[$0.upperBound...] } }
            .first.map { String($0).trimmingCharacters(in: .whitespaces) }
    }

    /// The port it listens on, from its base URL.
    var port: Int? { endpoint.baseURL.split(separator: ":").last.flatMap { Int($0) } }

    /// Peak memory of the mock so far; `nil` once it has ended.
    var peakRSSKiB: Int? {
        let sample = PeakMemory.kib(of: process.processIdentifier)
        return process.isRunning ? sample : nil
    }

    /// Stops the mock (SIGTERM) and waits for it to end.
    func stop() {
        if process.send(SIGTERM) {
            _ = process.waitBlocking()
        }
    }
}
