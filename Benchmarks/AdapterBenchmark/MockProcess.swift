import Foundation

/// A `stratus-mock` serving HTTPS in a process of its own, so that neither the clients nor the
/// parent share its memory or threads.
final class MockProcess {
    let endpoint: MockEndpoint
    /// Drive's root folder id ("My Drive"), from the banner.
    let rootFolderID: String?
    let process: Process

    /// Starts the mock (with `--tls` when the provider's is served over HTTPS) and waits (up to
    /// 30 s) for its banner.
    init(_ provider: Provider, executable: String, dataDirectory: URL, logFolder: URL) async throws {
        let log = logFolder.appendingPathComponent("mock-\(provider.rawValue).log")
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
            throw BenchmarkFailure("cannot create \(log.path)")
        }
        let handle = try FileHandle(forWritingTo: log)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments =
            [provider.rawValue, "--port", "0", "--token-ttl", "86400", "--data-dir", dataDirectory.path]
            + (provider.servesTLS ? ["--tls"] : [])
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        try? handle.close()
        self.process = process

        var banner = ""
        for _ in 0..<300 where !banner.contains("Press Ctrl-C") {
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(100))
            banner = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        }
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
            if process.isRunning { process.terminate() }
            throw BenchmarkFailure("stratus-mock \(provider.rawValue) did not start:\n\(banner)")
        }
        endpoint = MockEndpoint(provider: provider, baseURL: base, accessToken: token, caFile: ca ?? "")
        rootFolderID = value(after: "root folder id:")
    }

    /// Peak memory of the mock so far.
    var peakRSSKiB: Int? { PeakMemory.kib(statusFile: "/proc/\(process.processIdentifier)/status") }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }
}
