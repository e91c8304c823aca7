import Foundation
import StratusFileSystem
import StratusTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `ChildProcess`: `posix_spawn` with chosen descriptors and nothing else inherited, exit status
/// and signals, pipes drained at once, and waits that hold no cooperative thread.
@Suite struct ChildProcessTests {
    // MARK: Ending

    @Test func exitStatusesAreReported() async throws {
        #expect(try await ChildProcess.run("true").termination == .exited(0))
        #expect(try await ChildProcess.run("true").termination.isSuccess)
        let failed = try await ChildProcess.run("/bin/sh", ["-c", "exit 3"])
        #expect(failed.termination == .exited(3))
        #expect(!failed.termination.isSuccess)
        // Blocking calls run off the cooperative pool, whose few threads other tests need.
        let blocking = try await BlockingWork.run { _ in try ChildProcess.runBlocking("/bin/sh", ["-c", "exit 255"]) }
        #expect(blocking.termination == .exited(255))
    }

    @Test func aSignalThatKillsTheChildIsReported() async throws {
        let killedItself = try await ChildProcess.run("/bin/sh", ["-c", "kill -TERM $$"])
        #expect(killedItself.termination == .signalled(SIGTERM))

        let child = try ChildProcess("sleep", ["30"])
        #expect(child.isRunning)
        #expect(child.termination == nil)
        child.kill()
        #expect(await child.wait() == .signalled(SIGKILL))
        #expect(child.termination == .signalled(SIGKILL))
        #expect(!child.send(SIGTERM), "a reaped child's ID is not signalled")
    }

    /// The spawning thread's blocked signals are not the child's: SIGTERM stops a child started
    /// from a thread that blocks everything (as Dispatch's threads block some signals).
    @Test func theChildStartsWithNoBlockedOrIgnoredSignal() async throws {
        let started: (ChildProcess, ChildProcess) = try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                var all = sigset_t()
                sigfillset(&all)
                pthread_sigmask(SIG_BLOCK, &all, nil)
                do {
                    let status = try ChildProcess(
                        "grep", ["-E", "^Sig(Blk|Ign):", "/proc/self/status"], output: .collect())
                    let sleeper = try ChildProcess("sleep", ["30"])
                    continuation.resume(returning: (status, sleeper))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
            thread.start()
        }
        let (status, sleeper) = started
        let masks = try await status.finish().outputText.split(separator: "\n").map {
            $0.split(separator: "\t").map(String.init)
        }
        #expect(masks.map(\.first) == ["SigBlk:", "SigIgn:"])
        let blocked = try #require(UInt64(masks[0].last ?? "", radix: 16))
        let ignored = try #require(UInt64(masks[1].last ?? "", radix: 16))
        #expect(blocked == 0)
        // Signals 1 to 31; glibc keeps its own 32 and 33 (thread cancellation) ignored.
        #expect(ignored & 0x7fff_ffff == 0, "\(String(ignored, radix: 16))")
        sleeper.terminate()
        #expect(await sleeper.wait() == .signalled(SIGTERM))
    }

    // MARK: Resource usage

    /// A reaped child's CPU time comes back from `wait4`: a shell busy in a loop of its own, and a
    /// shell that only waits while the members of its pipeline work (their time is counted too).
    @Test func aBusyChildReportsItsCPUTime() async throws {
        let loop = try await ChildProcess.run(
            "/bin/sh", ["-c", "i=0; while [ $i -lt 200000 ]; do i=$((i + 1)); done"])
        #expect(loop.termination == .exited(0))
        let own = try #require(loop.resourceUsage)
        #expect(own.cpuTime > .zero)
        #expect(own.cpuTime == own.userTime + own.systemTime)
        #expect(own.cpuSeconds > 0)

        let pipeline = try await ChildProcess.run("/bin/sh", ["-c", "head -c 20000000 /dev/zero | cksum"])
        #expect(pipeline.termination == .exited(0))
        #expect(try #require(pipeline.resourceUsage).cpuTime > .zero)

        let sleeper = try ChildProcess("sleep", ["30"])
        #expect(sleeper.resourceUsage == nil, "nothing until the child is reaped")
        sleeper.kill()
        _ = await sleeper.wait()
        #expect(sleeper.resourceUsage != nil)
    }

    // MARK: Input and output

    /// Both outputs are drained at once: a child that fills standard error's pipe before it
    /// writes a byte to standard output does not stall.
    @Test func outputsBiggerThanAPipeAreReadWhole() async throws {
        let size = 1_000_000
        let result = try await ChildProcess.run(
            "/bin/sh", ["-c", "head -c \(size) /dev/zero >&2; head -c \(size) /dev/zero; echo end >&2"])
        #expect(result.termination == .exited(0))
        #expect(result.standardOutput.count == size)
        #expect(result.standardError.count == size + 4)
        #expect(result.errorText.hasSuffix("end\n"))
    }

    @Test func inputBytesReachTheChildWhileItsOutputIsRead() async throws {
        let input = (0..<(3 * 1_048_576)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let result = try await ChildProcess.run("cat", input: .bytes(input))
        #expect(result.termination == .exited(0))
        #expect(result.standardOutput == input)

        let counted = try await ChildProcess.run("wc", ["-c"], input: .bytes(Array("hello".utf8)))
        #expect(counted.outputText.trimmingCharacters(in: .whitespacesAndNewlines) == "5")
        let empty = try await ChildProcess.run("wc", ["-c"])
        #expect(empty.outputText.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    }

    @Test func aChildThatReadsNoInputEndsNormally() async throws {
        let result = try await ChildProcess.run("true", input: .bytes(Array(repeating: 1, count: 4 * 1_048_576)))
        #expect(result.termination == .exited(0))
    }

    @Test func filesServeAsInputAndOutput() async throws {
        try await withTemporaryFolder(prefix: "stratus-child") { folder in
            let source = folder.appending(path: "in.txt")
            try Data("one\ntwo\n".utf8).write(to: source)
            let log = folder.appending(path: "log.txt")
            try Data("old text that is emptied\n".utf8).write(to: log)
            let result = try await ChildProcess.run(
                "/bin/sh", ["-c", "cat; echo to-error >&2"], input: .file(source.path), output: .file(log.path),
                error: .file(log.path))
            #expect(result.termination == .exited(0))
            #expect(try String(contentsOf: log, encoding: .utf8) == "one\ntwo\nto-error\n")
        }
    }

    @Test func aHeldOpenInputEndsWhenClosed() async throws {
        let child = try ChildProcess("cat", input: .heldOpen, output: .collect())
        try await Task.sleep(for: .milliseconds(100))
        #expect(child.isRunning, "cat waits for input that never comes")
        child.closeStandardInput()
        #expect(await child.wait() == .exited(0))
    }

    @Test func waitingForOutputSeesItAsItArrives() async throws {
        let child = try ChildProcess("/bin/sh", ["-c", "echo ready; exec sleep 30"], output: .collect())
        let ready = try await BlockingWork.run { _ in
            child.waitBlocking { output, _ in output.contains(UInt8(ascii: "\n")) }
        }
        #expect(ready)
        #expect(String(decoding: child.standardOutput, as: UTF8.self) == "ready\n")
        #expect(child.isRunning)
        child.kill()
        #expect(await child.wait() == .signalled(SIGKILL))

        let quiet = try ChildProcess("true", output: .collect())
        let printed = try await BlockingWork.run { _ in quiet.waitBlocking { output, _ in !output.isEmpty } }
        #expect(!printed, "ended without printing")
    }

    // MARK: Environment and folder

    @Test func theEnvironmentIsExactlyTheOneGiven() async throws {
        let result = try await ChildProcess.run("/usr/bin/env", environment: ["STRATUS_A": "1", "B": "two words"])
        #expect(result.outputText == "B=two words\nSTRATUS_A=1\n")

        // nil: this process's own (not changed here: setenv beside other tests' spawns is a race).
        let path = try #require(ProcessInfo.processInfo.environment["PATH"])
        let inherited = try await ChildProcess.run("/bin/sh", ["-c", "echo \"$PATH\""])
        #expect(inherited.outputText == path + "\n")
    }

    @Test func theChildStartsInTheWorkingDirectory() async throws {
        try await withTemporaryFolder(prefix: "stratus-child") { folder in
            let real = folder.resolvingSymlinksInPath().path
            let result = try await ChildProcess.run("/bin/pwd", ["-P"], workingDirectory: folder.path)
            #expect(result.outputText == real + "\n")
        }
    }

    // MARK: Failures

    @Test func aMissingProgramIsATypedError() async throws {
        await #expect(throws: ChildProcessError.executableNotFound("stratus-no-such-program")) {
            try await ChildProcess.run("stratus-no-such-program")
        }
        await #expect(throws: ChildProcessError.executableNotFound("/nonexistent/stratus-program")) {
            try await ChildProcess.run("/nonexistent/stratus-program")
        }
        #expect(throws: ChildProcessError.cannotOpen(path: "/nonexistent/folder", errorNumber: ENOENT)) {
            try ChildProcess("true", workingDirectory: "/nonexistent/folder")
        }
        #expect(throws: ChildProcessError.cannotOpen(path: "/nonexistent/input", errorNumber: ENOENT)) {
            try ChildProcess("true", input: .file("/nonexistent/input"))
        }
        #expect(throws: ChildProcessError.nulInArgument(executable: "/bin/echo")) {
            try ChildProcess("/bin/echo", ["a\u{0}b"])
        }
    }

    @Test func aChildPastItsTimeLimitIsKilled() async throws {
        let started = ContinuousClock.now
        await #expect(throws: ChildProcessError.timedOut(executable: "/bin/sh", after: .milliseconds(200))) {
            // The shell's own child keeps the output pipe open after the shell is killed: given up.
            try await ChildProcess.run("/bin/sh", ["-c", "sleep 60 & sleep 60"], timeout: .milliseconds(200))
        }
        // Neither the shell's minute nor its child's was waited for (a busy machine's margin apart).
        #expect(ContinuousClock.now - started < .seconds(30))

        let quick = try await ChildProcess.run("true", timeout: .seconds(30))
        #expect(quick.termination == .exited(0))
    }

    @Test func collectedOutputStopsAtItsLimit() async throws {
        await #expect(throws: ChildProcessError.outputTooLarge(executable: "/bin/sh", limit: 1000)) {
            try await ChildProcess.run("/bin/sh", ["-c", "head -c 200000 /dev/zero"], output: .collect(limit: 1000))
        }
        // An endless writer ends on SIGPIPE once the pipe is closed.
        let endless = try ChildProcess("yes", output: .collect(limit: 4096))
        #expect(await endless.wait() == .signalled(SIGPIPE))
        #expect(endless.outputExceededLimit)
        #expect(endless.standardOutput.count == 4096)
        #expect(ChildProcessError.outputTooLarge(executable: "yes", limit: 4096).description.contains("4096"))
    }

    @Test func cancellingTheTaskKillsTheChild() async throws {
        let task = Task { try await ChildProcess.run("sleep", ["30"]) }
        try await Task.sleep(for: .milliseconds(100))
        task.cancel()
        #expect(try await task.value.termination == .signalled(SIGKILL))
    }

    // MARK: Descriptors and threads

    /// A descriptor this process opened without O_CLOEXEC, and the pipes of other children, stay
    /// out of the child: it has 0, 1 and 2 and nothing else.
    @Test func theChildInheritsNoOtherDescriptor() async throws {
        let leaked = open("/dev/null", O_RDONLY)
        #expect(leaked > 2)
        defer { close(leaked) }
        let other = try await Self.settledShell()
        let child = try await Self.settledShell()
        #expect(try Self.descriptors(of: child) == ["0", "1", "2"])
        for process in [other, child] {
            process.closeStandardInput()
            #expect(await process.wait() == .exited(0))
        }
    }

    /// With ~1,500 descriptors open (where Foundation's `Process.run()` crashed now and then),
    /// children start side by side and inherit none of them.
    @Test func manyOpenDescriptorsAndManyChildren() async throws {
        let opened = (0..<1_500).map { _ in open("/dev/null", O_RDONLY) }
        defer {
            for descriptor in opened where descriptor >= 0 { close(descriptor) }
        }
        #expect(opened.allSatisfy { $0 >= 0 })
        let listings = try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<24 {
                group.addTask {
                    let child = try await Self.settledShell()
                    let listing = try Self.descriptors(of: child)
                    child.closeStandardInput()
                    _ = await child.wait()
                    return listing
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(listings.count == 24)
        #expect(listings.allSatisfy { $0 == ["0", "1", "2"] }, "\(listings)")
    }

    /// A shell that has said it is ready and waits for its input to end: past the dynamic
    /// loader's start-up (which opens libraries on descriptor 3 for a moment), opening nothing.
    private static func settledShell() async throws -> ChildProcess {
        let child = try ChildProcess(
            "/bin/sh", ["-c", "echo ready; read line; exit 0"], input: .heldOpen, output: .collect(), error: .collect())
        while child.standardOutput != Array("ready\n".utf8) {
            try #require(child.isRunning, "the shell ended early: \(child.standardError)")
            try await Task.sleep(for: .milliseconds(10))
        }
        return child
    }

    /// The descriptor numbers a process has open, from /proc.
    private static func descriptors(of child: ChildProcess) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/\(child.processIdentifier)/fd").sorted()
    }

    /// Waits suspend: more waiting children than the cooperative pool has threads still leave
    /// room for the task that ends them.
    @Test(.timeLimit(.minutes(1))) func waitsHoldNoCooperativeThread() async throws {
        let children = try (0..<8).map { _ in try ChildProcess("sleep", ["30"]) }
        let endings = await withTaskGroup(of: ChildProcess.Termination?.self) { group in
            for child in children { group.addTask { await child.wait() } }
            group.addTask {
                try? await Task.sleep(for: .milliseconds(200))
                for child in children { child.kill() }
                return nil
            }
            return await group.compactMap { $0 }.reduce(into: []) { $0.append($1) }
        }
        #expect(endings == Array(repeating: .signalled(SIGKILL), count: 8))
    }
}
