import Foundation

/// How a child process ended and what it printed.
struct ChildResult {
    /// The exit status, or `nil` when a signal ended the process.
    var exitStatus: Int32?
    /// The signal that ended the process, if one did.
    var signal: Int32?
    /// From just before the process was started until it was seen to have ended.
    var wallSeconds: Double
    /// User plus system CPU time the process used (from `wait4`).
    var cpuSeconds: Double
    /// The largest VmHWM seen while polling the process every few milliseconds.
    var sampledPeakRSSKiB: Int?
    var standardOutput: String
    var standardError: String

    var succeeded: Bool { exitStatus == 0 }

    /// "exit status 3" or "signal 9", with the end of standard error.
    var failureDescription: String {
        let how = exitStatus.map { "exit status \($0)" } ?? "signal \(signal ?? 0)"
        let detail = standardError.split(separator: "\n").suffix(5).joined(separator: "\n")
        return detail.isEmpty ? how : "\(how): \(detail)"
    }
}

/// Starts a program with `posix_spawnp`, its standard output and error going to files, and
/// waits for it while sampling its peak memory.
enum ChildProcess {
    /// How often the parent checks whether the child ended (bounds the error of `wallSeconds`).
    private static let pollInterval = Duration.milliseconds(2)
    /// The child's VmHWM is read every this many polls (about every 10 ms).
    private static let samplesEvery = 5

    /// Runs `program` (looked up on `PATH` unless it contains a slash) to its end.
    /// - Parameters:
    ///   - logFolder: Where `<label>.out` and `<label>.err` are written.
    static func run(_ program: String, _ arguments: [String], label: String, logFolder: URL) async throws -> ChildResult
    {
        let outputFile = logFolder.appendingPathComponent("\(label).out")
        let errorFile = logFolder.appendingPathComponent("\(label).err")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let redirections = [
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0),
            posix_spawn_file_actions_addopen(&actions, 1, outputFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644),
            posix_spawn_file_actions_addopen(&actions, 2, errorFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644),
        ]
        if let failure = redirections.first(where: { $0 != 0 }) {
            throw BenchmarkError("cannot redirect the output of \(program): \(String(cString: strerror(failure)))")
        }

        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in environment { free(pointer) }
        }

        var pid: pid_t = 0
        let start = ContinuousClock.now
        let spawned = posix_spawnp(&pid, program, &actions, nil, argv, environment)
        guard spawned == 0 else {
            throw BenchmarkError("cannot start \(program): \(String(cString: strerror(spawned)))")
        }

        var status: Int32 = 0
        var usage = rusage()
        var peak: Int?
        var polls = 0
        while true {
            let waited = wait4(pid, &status, WNOHANG, &usage)
            if waited == pid { break }
            if waited < 0, errno != EINTR {
                throw BenchmarkError("waiting for \(program) failed: \(String(cString: strerror(errno)))")
            }
            if polls % samplesEvery == 0, let sample = PeakMemory.highWaterMarkKiB(of: pid) {
                peak = max(peak ?? 0, sample)
            }
            polls += 1
            do {
                try await Task.sleep(for: pollInterval)
            } catch {
                // Cancelled (the benchmark was interrupted): the child goes too.
                kill(pid, SIGTERM)
                _ = waitpid(pid, &status, 0)
                throw error
            }
        }
        let wallSeconds = (ContinuousClock.now - start).seconds

        let signal = status & 0x7f
        return ChildResult(
            exitStatus: signal == 0 ? (status >> 8) & 0xff : nil,
            signal: signal == 0 ? nil : signal,
            wallSeconds: wallSeconds,
            cpuSeconds: usage.ru_utime.seconds + usage.ru_stime.seconds,
            sampledPeakRSSKiB: peak,
            standardOutput: (try? String(contentsOf: outputFile, encoding: .utf8)) ?? "",
            standardError: (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
        )
    }
}
