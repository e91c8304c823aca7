import BenchmarkSupport
import Foundation
import StratusFileSystem

/// ``ConnectProxy`` in a process of its own (this executable, `child proxy PORT`), started for
/// the lines that need it and stopped after them. As a living child of the benchmark its CPU time
/// counts with the server's.
final class ProxyProcess {
    /// The port it listens on, on 127.0.0.1.
    let port: Int
    private let process: ChildProcess

    /// Starts the proxy and waits (up to 10 s) for the port it prints.
    init(executable: String, targetPort: Int, logFolder: URL) async throws {
        let log = logFolder.appendingPathComponent("connect-proxy-\(targetPort).log")
        let process = try ChildProcess(
            executable, ["child", "proxy", String(targetPort)], input: .null, output: .file(log.path),
            error: .file(log.path))
        self.process = process
        let text = try await process.waitForLog(log, tries: 100) { Self.port(in: $0) != nil }
        guard let port = Self.port(in: text) else {
            process.terminate()
            throw BenchmarkFailure("the CONNECT proxy did not start: \(text)")
        }
        self.port = port
    }

    /// The port the proxy's report in its log names, if it has printed it.
    private static func port(in log: String) -> Int? {
        ChildReport(parsing: log).fields["port"].flatMap { Int($0) }
    }

    /// Stops the proxy (SIGTERM) and waits for it to end.
    func stop() {
        if process.send(SIGTERM) {
            _ = process.waitBlocking()
        }
    }
}
