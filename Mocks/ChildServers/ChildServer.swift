import Foundation
import Synchronization

/// Starts the real servers tests run against (moto, WsgiDAV, Apache httpd, rclone) as child
/// processes that stop when this process ends, however it ends: each child's stdin is a pipe
/// whose writing end this process keeps open for its whole life, and the child (or a small shell
/// around it) stops at the end of that input, which the kernel delivers when this process exits.
public enum ChildServer {
    /// The writing ends of the children's stdin pipes, kept open for as long as the process
    /// lives: closing one stops its server.
    private static let keepAlive = Mutex<[FileHandle]>([])

    /// A child server that did not start, with its own output.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong, with what the child wrote to its log.
        public var reason: String
        /// The ``reason``.
        public var description: String { reason }
    }

    /// Whether `python3` can import the named modules (for example `"moto.server"`).
    /// - Parameter modules: A comma-separated list, as an `import` statement takes it.
    public static func pythonImports(_ modules: String) -> Bool {
        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import \(modules)"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return false
        }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// Starts a command with its stdin kept open for the life of this process and its output
    /// (stdout and stderr) in a log file.
    /// - Parameters:
    ///   - arguments: The executable's absolute path, then its arguments.
    ///   - log: The log file; created (or emptied) here.
    /// - Throws: An error when the command cannot be started.
    public static func launch(_ arguments: [String], log: URL) throws {
        guard let executable = arguments.first else { throw Failure(reason: "no command to start") }
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let output = try FileHandle(forWritingTo: log)
        _ = try start(executable, Array(arguments.dropFirst()), environment: nil, output: output, errors: output)
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
        // A file, not a pipe, for stderr: a pipe nobody drains would stall the server once full.
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let errors = try FileHandle(forWritingTo: log)
        let output = Pipe()
        var merged = ProcessInfo.processInfo.environment
        merged.merge(environment) { _, new in new }
        let process = try start(
            executable, Array(arguments.dropFirst()), environment: merged, output: output, errors: errors)
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let port = Int(text), port > 0, port < 65_536 else {
            process.waitUntilExit()
            let written = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw Failure(reason: "\(name) did not start (exit \(process.terminationStatus)): \(written)")
        }
        try? FileManager.default.removeItem(at: log)
        return port
    }

    private static func start(
        _ executable: String, _ arguments: [String], environment: [String: String]?, output: Any, errors: Any
    ) throws -> Process {
        let process = Process()
        process.executableURL = URL(filePath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        keepAlive.withLock { $0.append(input.fileHandleForWriting) }
        return process
    }
}
