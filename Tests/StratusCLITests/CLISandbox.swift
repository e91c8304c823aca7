import Foundation
import StratusFileSystem
import StratusTestSupport
import Testing

/// What a finished run of a built executable printed, and how it exited.
struct CLIResult: Sendable {
    var status: Int32
    var stdout: String
    var stderr: String

    /// Standard output parsed as one JSON object.
    func json(sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
        return try #require(
            object as? [String: Any], "stdout is not a JSON object: \(stdout)", sourceLocation: sourceLocation)
    }
}

/// A per-test folder with its own configuration file and home, and a way to run the built
/// `stratus` and `stratus-save-sync` executables in it with an environment that holds nothing
/// from the developer's own Stratus setup.
struct CLISandbox: Sendable {
    let folder: URL
    let configFile: URL
    /// Extra environment variables for every run.
    var environment: [String: String] = [:]

    /// Runs `body` with a fresh sandbox, then removes its folder.
    static func with<Result: Sendable>(_ body: (CLISandbox) async throws -> Result) async throws -> Result {
        try await withTemporaryFolder(prefix: "stratus-cli") { folder in
            try FileManager.default.createDirectory(
                at: folder.appending(path: "home"), withIntermediateDirectories: true)
            return try await body(CLISandbox(folder: folder, configFile: folder.appending(path: "config/remotes.json")))
        }
    }

    /// A path inside the sandbox.
    func path(_ relative: String) -> URL { folder.appending(path: relative) }

    /// Writes a small local file and returns its path.
    @discardableResult
    func write(_ text: String, to relative: String) throws -> URL {
        let url = path(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url
    }

    /// The process environment for a run: no STRATUS_* or XDG variables from outside, the home
    /// inside the sandbox, and STRATUS_CONFIG pointing at the sandbox's file.
    func processEnvironment(_ extra: [String: String]) -> [String: String] {
        var result = ProcessInfo.processInfo.environment.filter {
            !$0.key.hasPrefix("STRATUS_") && !$0.key.hasPrefix("XDG_")
        }
        result["HOME"] = path("home").path
        result["STRATUS_CONFIG"] = configFile.path
        result.merge(environment) { $1 }
        result.merge(extra) { $1 }
        return result
    }

    /// Runs `stratus` with arguments and waits for it to exit.
    func stratus(_ arguments: String..., environment extra: [String: String] = [:]) async throws -> CLIResult {
        try await run(Executables.url(of: "stratus"), arguments, environment: extra)
    }

    /// Runs `stratus-save-sync` with arguments and waits for it to exit.
    func saveSync(_ arguments: [String], environment extra: [String: String] = [:]) async throws -> CLIResult {
        try await run(Executables.url(of: "stratus-save-sync"), arguments, environment: extra)
    }

    /// Starts `stratus` and returns at once, for commands that wait (login, changes --follow).
    func start(_ arguments: [String], environment extra: [String: String] = [:]) throws -> RunningProcess {
        try RunningProcess(Executables.url(of: "stratus"), arguments, environment: processEnvironment(extra))
    }

    /// Starts `stratus-save-sync` with its standard input a pipe held open (until
    /// ``RunningProcess/closeInput()``) and returns at once, for `live`, which reads commands.
    func startSaveSync(_ arguments: [String], environment extra: [String: String] = [:]) throws -> RunningProcess {
        try RunningProcess(
            Executables.url(of: "stratus-save-sync"), arguments, environment: processEnvironment(extra),
            input: .heldOpen)
    }

    private func run(_ executable: URL, _ arguments: [String], environment extra: [String: String]) async throws
        -> CLIResult
    {
        let process = try RunningProcess(executable, arguments, environment: processEnvironment(extra))
        return try await process.finish()
    }
}

/// A started executable whose output is collected as it arrives (by the `ChildProcess`'s own
/// thread, which drains both pipes at once, so a full pipe never blocks the child).
final class RunningProcess: Sendable {
    private let child: ChildProcess

    init(
        _ executable: URL, _ arguments: [String], environment: [String: String], input: ChildProcess.Input = .null
    ) throws {
        child = try ChildProcess(
            executable.path, arguments, environment: environment, input: input, output: .collect(), error: .collect())
    }

    var stdout: String { String(decoding: child.standardOutput, as: UTF8.self) }
    var stderr: String { String(decoding: child.standardError, as: UTF8.self) }
    /// Whether the process has not ended yet.
    var isRunning: Bool { child.isRunning }

    /// Closes the process's standard input, when it was started with one held open: it reads
    /// the end of input.
    func closeInput() {
        child.closeStandardInput()
    }

    /// Waits until standard output or error holds text that `matches` accepts, checking every
    /// 50 ms, for at most `seconds` (a safety bound, not a timing assertion).
    func waitFor(seconds: Double = 30, _ matches: (_ stdout: String, _ stderr: String) -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if matches(stdout, stderr) { return true }
            if !child.isRunning { return matches(stdout, stderr) }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    /// Asks the process to stop (SIGTERM); nothing once it has ended.
    func terminate() {
        child.terminate()
    }

    /// Waits for the exit and returns everything printed; the status is the exit status, or the
    /// number of the signal that killed the process.
    func finish() async throws -> CLIResult {
        let status: Int32
        switch await child.wait() {
        case .exited(let code): status = code
        case .signalled(let signal): status = signal
        }
        return CLIResult(status: status, stdout: stdout, stderr: stderr)
    }
}

/// Where the built executables are: next to the test bundle in the build products folder.
enum Executables {
    static func url(of name: String) throws -> URL {
        var candidates: [URL] = []
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append(bundle.bundleURL.deletingLastPathComponent())
        }
        candidates.append(Bundle.main.bundleURL)
        if let first = CommandLine.arguments.first {
            candidates.append(URL(filePath: first).deletingLastPathComponent())
        }
        for folder in candidates {
            let url = folder.appending(path: name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        throw ExecutableMissing(name: name, searched: candidates.map(\.path))
    }

    struct ExecutableMissing: Error, CustomStringConvertible {
        var name: String
        var searched: [String]
        var description: String {
            "The built '\(name)' is not next to the tests (looked in \(searched.joined(separator: ", "))); build it with `swift build --build-tests --traits Development`."
        }
    }
}
