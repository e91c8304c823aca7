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
        var port: Int?
        for _ in 0..<100 where port == nil {
            guard process.isRunning else { break }
            do {
                try await Task.sleep(for: .milliseconds(100))
            } catch {
                process.terminate()
                throw error
            }
            port = ChildReport(parsing: (try? String(contentsOf: log, encoding: .utf8)) ?? "").fields["port"]
                .flatMap { Int($0) }
        }
        guard let port else {
            process.terminate()
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw BenchmarkFailure("the CONNECT proxy did not start: \(text)")
        }
        self.port = port
    }

    /// Stops the proxy (SIGTERM) and waits for it to end.
    func stop() {
        if process.send(SIGTERM) {
            _ = process.waitBlocking()
        }
    }
}
