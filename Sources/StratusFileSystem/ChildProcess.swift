package import CLinux
import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A program started as a child process with `posix_spawn`, the package's one way to run one
/// (in place of Foundation's `Process`, whose `run()` on Swift 6.3.1 walks /proc/self/fd and now
/// and then crashes in a process with many descriptors: swift-corelibs-foundation PR 5472).
///
/// - The child gets descriptors 0, 1 and 2 as asked (``Input``, ``Output``) and no other: the
///   spawn closes every descriptor from 3 up (`posix_spawn_file_actions_addclosefrom_np`, one
///   `close_range` call), and the pipes made here are close-on-exec from the start.
/// - It starts with no blocked signals and every signal at its default action, whatever the
///   spawning thread had blocked or ignored (so SIGTERM and SIGPIPE work as the program expects).
/// - One thread of its own per child writes the ``Input/bytes(_:)`` input, drains the collected
///   outputs (both at once, so a child never stalls on a full pipe) and then reaps the child;
///   waiting, from async code or not, never holds a thread of the Swift cooperative pool.
///
/// ```swift
/// let result = try await ChildProcess.run("openssl", ["version"])
/// guard result.termination.isSuccess else { ... }
/// ```
///
/// A finished child's CPU time is in ``Result/resourceUsage`` (from `wait4`); its peak memory
/// can be sampled from `/proc/<processIdentifier>/status` while it runs.
package final class ChildProcess: Sendable {
    /// What the child reads on its standard input.
    package enum Input: Sendable {
        /// `/dev/null`: the child reads the end of input at once.
        case null
        /// This process's own standard input (a terminal, say, for a command that prompts).
        case inherit
        /// These bytes, then the end of input (written by the child's thread as the child reads).
        case bytes([UInt8])
        /// A file, from its start.
        case file(String)
        /// A pipe whose writing end this object holds until ``ChildProcess/closeStandardInput()``
        /// or until the object goes away, or this process ends however it ends: the child reads
        /// the end of input then (a server can stop on it).
        case heldOpen
    }

    /// Where the child's standard output or standard error goes.
    package enum Output: Sendable {
        /// `/dev/null`.
        case null
        /// This process's own standard output (for standard output) or standard error.
        case inherit
        /// A file, created (mode 0644 less the umask) or emptied, written in append mode so that
        /// both outputs can name the same file.
        case file(String)
        /// A pipe read into memory; ``ChildProcess/standardOutput`` and
        /// ``ChildProcess/standardError`` show it as it arrives. Past `limit` bytes reading stops
        /// and the pipe is closed (the child then gets SIGPIPE or `EPIPE` if it writes on), and
        /// ``ChildProcess/outputExceededLimit`` is set.
        case collect(limit: Int = Int.max)
    }

    /// How the child ended.
    package enum Termination: Sendable, Hashable, CustomStringConvertible {
        /// It exited with this status (0 to 255); -1 when the status was lost because something
        /// else in this process reaped the child (or SIGCHLD is ignored).
        case exited(Int32)
        /// A signal killed it, such as `SIGKILL`.
        case signalled(Int32)

        /// Whether it exited with status 0.
        package var isSuccess: Bool { self == .exited(0) }

        /// `exit status N` or `signal N`.
        package var description: String {
            switch self {
            case .exited(let status): return "exit status \(status)"
            case .signalled(let signal): return "signal \(signal)"
            }
        }

        /// Decodes a `waitpid` status (exited or killed; stopped children are not asked about).
        init(waitStatus status: Int32) {
            let signal = status & 0x7f
            self = signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
        }
    }

    /// The CPU time the kernel counted for a reaped child: `wait4`'s `rusage`, which holds the
    /// child's own time and that of the processes it waited for in turn (the members of a shell's
    /// pipeline, say), start-up included.
    ///
    /// No peak memory is given: on Linux a child started with `posix_spawn` (or `fork`) keeps the
    /// spawning process's high-water mark across `exec`, so `ru_maxrss` would count this process's
    /// memory against it. Sample `VmHWM` in `/proc/<processIdentifier>/status` while it runs.
    package struct ResourceUsage: Sendable, Hashable {
        /// Time spent running the child's own code (`ru_utime`).
        package var userTime: Duration
        /// Time the kernel spent on the child's behalf (`ru_stime`).
        package var systemTime: Duration

        /// ``userTime`` plus ``systemTime``.
        package var cpuTime: Duration { userTime + systemTime }

        /// ``cpuTime`` in seconds.
        package var cpuSeconds: Double {
            let (seconds, attoseconds) = cpuTime.components
            return Double(seconds) + Double(attoseconds) / 1e18
        }

        /// The times of a `wait4` `rusage`.
        init(_ usage: rusage) {
            userTime = Self.duration(usage.ru_utime)
            systemTime = Self.duration(usage.ru_stime)
        }

        private static func duration(_ time: timeval) -> Duration {
            .seconds(Int64(time.tv_sec)) + .microseconds(Int64(time.tv_usec))
        }
    }

    /// A finished child: how it ended and what it wrote to the collected outputs.
    package struct Result: Sendable {
        /// How it ended.
        package var termination: Termination
        /// Its CPU time (with that of the processes it waited for); `nil` when the status was lost
        /// (``Termination/exited(_:)`` with -1).
        package var resourceUsage: ResourceUsage?
        /// Its standard output, when collected; empty otherwise.
        package var standardOutput: [UInt8]
        /// Its standard error, when collected; empty otherwise.
        package var standardError: [UInt8]

        /// ``standardOutput`` as UTF-8 text (invalid bytes replaced).
        package var outputText: String { String(decoding: standardOutput, as: UTF8.self) }
        /// ``standardError`` as UTF-8 text (invalid bytes replaced).
        package var errorText: String { String(decoding: standardError, as: UTF8.self) }
    }

    /// The child's process ID (valid for signals until it is reaped; ``send(_:)`` knows when).
    package let processIdentifier: pid_t
    /// The path that was run: the given one, or where `PATH` led a bare name.
    package let executablePath: String
    private let monitor: ChildProcessMonitor

    /// Starts a program.
    /// - Parameters:
    ///   - executable: An absolute or relative path (relative to `workingDirectory` when one is
    ///     given), or a bare name looked up in `PATH` (the given environment's, else this
    ///     process's, else `/usr/local/bin:/usr/bin:/bin`).
    ///   - arguments: The arguments after the program's name (`argv[0]` is ``executablePath``).
    ///   - environment: The child's whole environment; `nil` passes this process's own.
    ///   - workingDirectory: The folder the child starts in; `nil` for this process's.
    ///   - input: Its standard input.
    ///   - output: Its standard output.
    ///   - error: Its standard error.
    ///   - timeout: How long it may run: past it the child is killed (SIGKILL), pipes it or its
    ///     own children still hold are given up, and ``timedOut`` is set. `nil` for no limit.
    /// - Throws: ``ChildProcessError`` when the program or a file cannot be found or opened, or
    ///   the spawn fails.
    package init(
        _ executable: String,
        _ arguments: [String] = [],
        environment: [String: String]? = nil,
        workingDirectory: String? = nil,
        input: Input = .null,
        output: Output = .null,
        error: Output = .null,
        timeout: Duration? = nil
    ) throws(ChildProcessError) {
        let path = try Self.resolve(executable, in: environment)
        guard !([path] + arguments).contains(where: { $0.utf8.contains(0) }),
            !(environment ?? [:]).contains(where: { $0.key.utf8.contains(0) || $0.value.utf8.contains(0) })
        else { throw .nulInArgument(executable: path) }
        if let workingDirectory { try Self.checkFolder(workingDirectory) }

        var plumbing = Plumbing(executable: path)
        defer { plumbing.closeChildEnds() }
        do throws(ChildProcessError) {
            try plumbing.connect(input)
            try plumbing.connect(output, to: 1)
            try plumbing.connect(error, to: 2)
            if timeout != nil { try plumbing.makeWakePipe() }
        } catch let failure {
            plumbing.closeParentEnds()
            throw failure
        }

        let spawned = Self.spawn(path, arguments, environment, workingDirectory, plumbing.childEnds)
        guard case .success(let pid) = spawned else {
            plumbing.closeParentEnds()
            if case .failure(let error) = spawned { throw error }
            throw .cannotStart(executable: path, errorNumber: EINVAL)
        }
        processIdentifier = pid
        executablePath = path
        monitor = ChildProcessMonitor(
            processIdentifier: pid, executable: path, timeout: timeout, heldInput: plumbing.heldInput,
            wake: plumbing.wake)
        let started = monitor.start(plumbing.streams)
        guard started == 0 else {
            _ = monitor.signal(SIGKILL)
            monitor.abandon()
            plumbing.closeStreams()
            throw .cannotStart(executable: path, errorNumber: started)
        }
        monitor.expireAtTimeout()
    }

    deinit {
        monitor.closeHeldInput()
    }

    // MARK: Running to the end

    /// Runs a program to its end and returns what it wrote; cancelling the task kills the child
    /// (SIGKILL), and the result then says so.
    /// - Parameters:
    ///   - executable: See ``init(_:_:environment:workingDirectory:input:output:error:timeout:)``.
    ///   - arguments: The arguments after the program's name.
    ///   - environment: The child's whole environment; `nil` for this process's.
    ///   - workingDirectory: The folder the child starts in; `nil` for this process's.
    ///   - input: Its standard input.
    ///   - output: Its standard output; collected by default.
    ///   - error: Its standard error; collected by default.
    ///   - timeout: How long it may run; `nil` for no limit.
    /// - Returns: How it ended, and the collected outputs.
    /// - Throws: ``ChildProcessError``: it did not start, it ran past `timeout`, or it wrote more
    ///   than a collected output's limit. A nonzero exit is no error: see
    ///   ``Result/termination``.
    package static func run(
        _ executable: String,
        _ arguments: [String] = [],
        environment: [String: String]? = nil,
        workingDirectory: String? = nil,
        input: Input = .null,
        output: Output = .collect(),
        error: Output = .collect(),
        timeout: Duration? = nil
    ) async throws(ChildProcessError) -> Result {
        let child = try ChildProcess(
            executable, arguments, environment: environment, workingDirectory: workingDirectory, input: input,
            output: output, error: error, timeout: timeout)
        return try await child.finish()
    }

    /// ``run(_:_:environment:workingDirectory:input:output:error:timeout:)`` for synchronous
    /// code: blocks the calling thread until the child ends, so give a `timeout` when this is
    /// called from a task (it then holds a cooperative thread at most that long).
    /// - Parameters: See ``run(_:_:environment:workingDirectory:input:output:error:timeout:)``.
    /// - Returns: How it ended, and the collected outputs.
    /// - Throws: ``ChildProcessError`` as ``run(_:_:environment:workingDirectory:input:output:error:timeout:)``.
    package static func runBlocking(
        _ executable: String,
        _ arguments: [String] = [],
        environment: [String: String]? = nil,
        workingDirectory: String? = nil,
        input: Input = .null,
        output: Output = .collect(),
        error: Output = .collect(),
        timeout: Duration? = nil
    ) throws(ChildProcessError) -> Result {
        let child = try ChildProcess(
            executable, arguments, environment: environment, workingDirectory: workingDirectory, input: input,
            output: output, error: error, timeout: timeout)
        return try child.finishBlocking()
    }

    /// Waits for the end (the exit, and the end of the collected outputs) and returns what the
    /// child wrote; cancelling the task kills the child (SIGKILL).
    /// - Returns: How it ended, and the collected outputs.
    /// - Throws: ``ChildProcessError/timedOut(executable:after:)`` or
    ///   ``ChildProcessError/outputTooLarge(executable:limit:)``.
    package func finish() async throws(ChildProcessError) -> Result {
        let termination = await withTaskCancellationHandler {
            await wait()
        } onCancel: {
            kill()
        }
        return try monitor.result(termination)
    }

    /// ``finish()`` for synchronous code: blocks the calling thread until the end.
    /// - Returns: How it ended, and the collected outputs.
    /// - Throws: As ``finish()``.
    package func finishBlocking() throws(ChildProcessError) -> Result {
        try monitor.result(waitBlocking())
    }

    // MARK: Watching and stopping

    /// How the child ended; `nil` while it runs (or its collected outputs are still open).
    package var termination: Termination? { monitor.locked { monitor.termination } }
    /// The child's CPU time, once it has ended (see ``termination``); `nil` before, or when its
    /// status was lost.
    package var resourceUsage: ResourceUsage? { monitor.locked { monitor.resourceUsage } }
    /// Whether the child has not yet ended (see ``termination``).
    package var isRunning: Bool { termination == nil }
    /// The collected standard output so far.
    package var standardOutput: [UInt8] { monitor.locked { monitor.standardOutput } }
    /// The collected standard error so far.
    package var standardError: [UInt8] { monitor.locked { monitor.standardError } }
    /// Whether the child was killed for running past its time limit.
    package var timedOut: Bool { monitor.locked { monitor.timedOut } }
    /// Whether a collected output reached its limit (and was cut there).
    package var outputExceededLimit: Bool { monitor.locked { monitor.outputExceededLimit } }

    /// Waits (suspending, not blocking) until the child has exited and its collected outputs
    /// are complete.
    /// - Returns: How it ended.
    package func wait() async -> Termination {
        await monitor.wait()
    }

    /// Blocks the calling thread until the child has exited and its collected outputs are
    /// complete.
    /// - Returns: How it ended.
    package func waitBlocking() -> Termination {
        monitor.waitBlocking()
    }

    /// Blocks the calling thread until the collected outputs satisfy `condition` (checked now and
    /// on every change) or the child ends without them doing so.
    /// - Parameter condition: Looks at standard output and standard error so far.
    /// - Returns: Whether `condition` was met.
    package func waitBlocking(until condition: (_ output: [UInt8], _ error: [UInt8]) -> Bool) -> Bool {
        monitor.waitBlocking(until: condition)
    }

    /// Sends a signal, unless the child has already been reaped (its ID may then be another
    /// process's).
    /// - Parameter signal: Such as `SIGTERM`.
    /// - Returns: Whether the signal was sent.
    @discardableResult
    package func send(_ signal: Int32) -> Bool {
        monitor.signal(signal)
    }

    /// Asks the child to stop (SIGTERM).
    package func terminate() {
        send(SIGTERM)
    }

    /// Kills the child (SIGKILL).
    package func kill() {
        send(SIGKILL)
    }

    /// Closes this end of an ``Input/heldOpen`` standard input: the child reads the end of input.
    package func closeStandardInput() {
        monitor.closeHeldInput()
    }

    // MARK: Starting

    /// Where `PATH` leads a bare name; paths with a slash are kept as given.
    private static func resolve(_ name: String, in environment: [String: String]?) throws(ChildProcessError)
        -> String
    {
        guard !name.isEmpty else { throw .executableNotFound(name) }
        if name.contains("/") { return name }
        let search =
            environment?["PATH"] ?? getenv("PATH").map { String(cString: $0) } ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in search.split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = (folder.isEmpty ? "." : String(folder)) + "/" + name
            var info = stat()
            if stat(candidate, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, access(candidate, X_OK) == 0 {
                return candidate
            }
        }
        throw .executableNotFound(name)
    }

    private static func checkFolder(_ path: String) throws(ChildProcessError) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw .cannotOpen(path: path, errorNumber: errno) }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { throw .cannotOpen(path: path, errorNumber: ENOTDIR) }
    }

    /// `posix_spawn` with the child's descriptors on 0, 1 and 2, nothing else open, no blocked
    /// signal and every signal at its default action.
    private static func spawn(
        _ path: String, _ arguments: [String], _ environment: [String: String]?, _ workingDirectory: String?,
        _ childEnds: [(descriptor: Int32, target: Int32)]
    ) -> Swift.Result<pid_t, ChildProcessError> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }

        var failure: Int32 = 0
        if let workingDirectory {
            failure = stratus_spawn_add_change_directory(&actions, workingDirectory)
        }
        for end in childEnds where failure == 0 {
            failure = posix_spawn_file_actions_adddup2(&actions, end.descriptor, end.target)
        }
        if failure == 0 { failure = stratus_spawn_add_close_from(&actions, 3) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        if failure == 0 { failure = posix_spawnattr_setsigmask(&attributes, &noSignals) }
        if failure == 0 { failure = posix_spawnattr_setsigdefault(&attributes, &allSignals) }
        if failure == 0 {
            failure = posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        }
        guard failure == 0 else { return .failure(.cannotStart(executable: path, errorNumber: failure)) }

        var argv = ([path] + arguments).map { strdup($0) }
        argv.append(nil)
        var envp = (environment ?? [:]).sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") }
        envp.append(nil)
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        guard argv.dropLast().allSatisfy({ $0 != nil }), envp.dropLast().allSatisfy({ $0 != nil }) else {
            return .failure(.cannotStart(executable: path, errorNumber: ENOMEM))
        }
        var pid: pid_t = 0
        let result =
            environment == nil
            ? posix_spawn(&pid, path, &actions, &attributes, argv, environ)
            : posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        switch result {
        case 0: return .success(pid)
        case ENOENT: return .failure(.executableNotFound(path))
        default: return .failure(.cannotStart(executable: path, errorNumber: result))
        }
    }
}

/// The descriptors of one spawn: the child's ends (closed here once it has them), and this
/// process's ends for the child's thread.
private struct Plumbing {
    let executable: String
    /// Descriptors to become the child's 0, 1 and 2.
    var childEnds: [(descriptor: Int32, target: Int32)] = []
    /// The pipes the child's thread serves.
    var streams: [ChildProcessMonitor.Stream] = []
    /// The writing end of an ``ChildProcess/Input/heldOpen`` input, or -1.
    var heldInput: Int32 = -1
    /// The pipe that wakes the child's thread at a timeout.
    var wake: (read: Int32, write: Int32)?

    init(executable: String) {
        self.executable = executable
    }

    mutating func connect(_ input: ChildProcess.Input) throws(ChildProcessError) {
        switch input {
        case .null, .bytes([]):
            childEnds.append((try openForChild("/dev/null", O_RDONLY), 0))
        case .file(let path):
            childEnds.append((try openForChild(path, O_RDONLY), 0))
        case .bytes(let bytes):
            let pipe = try makePipe()
            childEnds.append((pipe.read, 0))
            _ = fcntl(pipe.write, F_SETFL, O_NONBLOCK)
            streams.append(.init(descriptor: pipe.write, role: .input(bytes)))
        case .heldOpen:
            let pipe = try makePipe()
            childEnds.append((pipe.read, 0))
            heldInput = pipe.write
        case .inherit:
            break
        }
    }

    mutating func connect(_ output: ChildProcess.Output, to target: Int32) throws(ChildProcessError) {
        switch output {
        case .null:
            childEnds.append((try openForChild("/dev/null", O_WRONLY), target))
        case .inherit:
            break
        case .file(let path):
            childEnds.append((try openForChild(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND), target))
        case .collect(let limit):
            let pipe = try makePipe()
            childEnds.append((pipe.write, target))
            streams.append(
                .init(descriptor: pipe.read, role: target == 1 ? .output(max(0, limit)) : .error(max(0, limit))))
        }
    }

    mutating func makeWakePipe() throws(ChildProcessError) {
        wake = try makePipe()
    }

    /// Closes the child's ends (after the spawn, or after a failure).
    mutating func closeChildEnds() {
        for end in childEnds { close(end.descriptor) }
        childEnds = []
    }

    /// Closes the pipes meant for the child's thread.
    mutating func closeStreams() {
        for stream in streams { close(stream.descriptor) }
        streams = []
    }

    /// Closes all of this process's ends after a failure.
    mutating func closeParentEnds() {
        closeStreams()
        if heldInput >= 0 { close(heldInput) }
        heldInput = -1
        if let wake {
            close(wake.read)
            close(wake.write)
        }
        wake = nil
    }

    private func openForChild(_ path: String, _ flags: Int32) throws(ChildProcessError) -> Int32 {
        let descriptor = SystemCall.retryingOnInterrupt { open(path, flags | O_CLOEXEC, 0o644) }
        guard descriptor >= 0 else { throw .cannotOpen(path: path, errorNumber: errno) }
        guard let moved = Self.aboveStandardDescriptors(descriptor) else {
            throw .cannotOpen(path: path, errorNumber: errno)
        }
        return moved
    }

    private func makePipe() throws(ChildProcessError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard stratus_pipe_cloexec(&ends) == 0 else { throw .cannotStart(executable: executable, errorNumber: errno) }
        let read = Self.aboveStandardDescriptors(ends[0])
        let write = Self.aboveStandardDescriptors(ends[1])
        guard let read, let write else {
            let number = errno
            if let read { close(read) }
            if let write { close(write) }
            throw .cannotStart(executable: executable, errorNumber: number)
        }
        return (read, write)
    }

    /// Moves a descriptor numbered 0, 1 or 2 (possible only when this process has closed its own)
    /// to 3 or above, so that the `dup2`s onto 0, 1 and 2 cannot overwrite one another's source.
    private static func aboveStandardDescriptors(_ descriptor: Int32) -> Int32? {
        if descriptor > 2 { return descriptor }
        let moved = fcntl(descriptor, F_DUPFD_CLOEXEC, 3)
        let number = errno
        close(descriptor)
        errno = number
        return moved >= 0 ? moved : nil
    }
}
