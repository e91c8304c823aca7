import Foundation
import StratusFileSystem
import Synchronization

/// Starts the real servers tests run against (moto, WsgiDAV, Apache httpd, rclone) as child
/// processes that stop when this process ends, however it ends: each child's stdin is a pipe
/// whose writing end this process keeps open for its whole life, and the child (or a small shell
/// around it) stops at the end of that input, which the kernel delivers when this process exits.
///
/// The children are started with `ChildProcess` (`posix_spawn`): they inherit no descriptor but
/// their own 0, 1 and 2 (so no other child's stdin pipe), block no signal and ignore none.
public enum ChildServer {
    /// The children, whose stdin pipes they hold open for as long as the process lives:
    /// closing one stops its server.
    private static let keepAlive = Mutex<[ChildProcess]>([])

    /// A child server that did not start, with its own output.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong, with what the child wrote to its log.
        public var reason: String
        /// The ``reason``.
        public var description: String { reason }
    }

    /// Runs a server's start, which blocks while it waits for the server to answer, on a thread
    /// outside Swift's cooperative pool: the pool has one thread per core, and tests that start
    /// servers while others run would otherwise stall every other task for seconds.
    /// - Parameter start: The blocking start.
    /// - Returns: What `start` returns.
    /// - Throws: What `start` throws.
    public static func offThePool<Value: Sendable>(_ start: @escaping @Sendable () throws -> Value) async throws
        -> Value
    {
        try await BlockingWork.run { _ in try start() }
    }

    /// Whether `python3` can import the named modules (for example `"moto.server"`).
    /// - Parameter modules: A comma-separated list, as an `import` statement takes it.
    public static func pythonImports(_ modules: String) -> Bool {
        let result = try? ChildProcess.runBlocking(
            "python3", ["-c", "import \(modules)"], output: .null, error: .null, timeout: .seconds(120))
        return result?.termination.isSuccess ?? false
    }

    /// Starts a command with its stdin kept open for the life of this process and its output
    /// (stdout and stderr) in a log file.
    /// - Parameters:
    ///   - arguments: The executable's absolute path, then its arguments.
    ///   - log: The log file; created (or emptied) here.
    /// - Throws: An error when the command cannot be started.
    public static func launch(_ arguments: [String], log: URL) throws {
        guard let executable = arguments.first else { throw Failure(reason: "no command to start") }
        _ = try start(executable, Array(arguments.dropFirst()), environment: nil, output: .file(log.path), log: log)
    }

    /// Starts a command that prints the port it listens on as the first line of its stdout (a
    /// server bound to port 0), and waits for that line.
    /// - Parameters:
    ///   - arguments: The executable's absolute path, then its arguments.
    ///   - environment: Variables added to this process's environment for the child.
    ///   - log: Where the child's stderr goes. The file is removed once the port is read (the
    ///     child keeps it open), so no file outlives the run.
    ///   - name: The server's name, for the error.
    /// - Returns: The port.
    /// - Throws: ``Failure`` with the child's exit status and log when no port comes.
    public static func startReportingPort(
        _ arguments: [String], environment: [String: String] = [:], log: URL, name: String
    ) throws -> Int {
        guard let executable = arguments.first else { throw Failure(reason: "no command to start") }
        var merged = ProcessInfo.processInfo.environment
        merged.merge(environment) { _, new in new }
        // Stdout is collected (a little: past 4 KiB the pipe is closed), stderr goes to a file:
        // a pipe nobody drains would stall the server once full.
        let child = try start(
            executable, Array(arguments.dropFirst()), environment: merged, output: .collect(limit: 4096), log: log)
        _ = child.waitBlocking { output, _ in output.contains(UInt8(ascii: "\n")) }
        let line = child.standardOutput.prefix { $0 != UInt8(ascii: "\n") }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let port = Int(text), port > 0, port < 65_536 else {
            let ending = child.waitBlocking()
            let written = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw Failure(reason: "\(name) did not start (\(ending)): \(written)")
        }
        try? FileManager.default.removeItem(at: log)
        return port
    }

    /// Starts a child with stdin held open for the life of this process and stderr in `log`.
    private static func start(
        _ executable: String, _ arguments: [String], environment: [String: String]?, output: ChildProcess.Output,
        log: URL
    ) throws -> ChildProcess {
        let child: ChildProcess
        do {
            child = try ChildProcess(
                executable, arguments, environment: environment, input: .heldOpen, output: output,
                error: .file(log.path))
        } catch {
            throw Failure(reason: "\(executable) could not be started: \(error)")
        }
        keepAlive.withLock { $0.append(child) }
        return child
    }
}
