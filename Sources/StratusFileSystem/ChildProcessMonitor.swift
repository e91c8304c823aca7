import CLinux
import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One child's thread and what it shares with the ``ChildProcess`` and its waiters: the thread
/// writes the child's input, drains its collected outputs with `poll`, waits for the exit
/// (`waitid` with `WNOWAIT`, no reaping) and reaps it under the lock (`wait4`, which also gives its
/// CPU time), so a signal sent under the same lock never reaches a reused process ID.
///
/// `@unchecked Sendable`: every `var` is read and written only while `condition` (an
/// `NSCondition`) is locked; the `let`s are constants.
final class ChildProcessMonitor: @unchecked Sendable {
    /// A pipe the thread serves.
    struct Stream {
        enum Role {
            /// Writes these bytes, then closes.
            case input([UInt8])
            /// Reads standard output, keeping at most this many bytes.
            case output(Int)
            /// Reads standard error, keeping at most this many bytes.
            case error(Int)
        }

        var descriptor: Int32
        var role: Role
        /// The bytes of an input written so far.
        var written = 0
    }

    let condition = NSCondition()
    let processIdentifier: pid_t
    let executable: String
    /// How long the child may run, if limited.
    let timeout: Duration?
    /// The reading end of the pipe that wakes the thread at a timeout, or -1; the thread's own.
    private let wakeRead: Int32

    var standardOutput: [UInt8] = []
    var standardError: [UInt8] = []
    /// Set when the child is reaped, after its collected outputs ended.
    var termination: ChildProcess.Termination?
    /// The reaped child's CPU time (`wait4`), set with ``termination`` unless the status was lost.
    var resourceUsage: ChildProcess.ResourceUsage?
    var timedOut = false
    var outputExceededLimit = false
    /// The limit an output reached.
    private var limitReached = 0
    private var heldInput: Int32
    private var wakeWrite: Int32
    private var waiters: [CheckedContinuation<ChildProcess.Termination, Never>] = []

    init(
        processIdentifier: pid_t, executable: String, timeout: Duration?, heldInput: Int32,
        wake: (read: Int32, write: Int32)?
    ) {
        self.processIdentifier = processIdentifier
        self.executable = executable
        self.timeout = timeout
        self.heldInput = heldInput
        wakeRead = wake?.read ?? -1
        wakeWrite = wake?.write ?? -1
    }

    /// Runs `body` with `condition` locked.
    func locked<Value>(_ body: () throws -> Value) rethrows -> Value {
        condition.lock()
        defer { condition.unlock() }
        return try body()
    }

    // MARK: The thread

    /// Starts the thread (detached, 512 KiB of stack) on these pipes.
    /// - Returns: 0, or the `errno` value of `pthread_create`.
    func start(_ streams: [Stream]) -> Int32 {
        let context = Unmanaged.passRetained(ThreadContext(monitor: self, streams: streams)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        pthread_attr_setstacksize(&attributes, 512 * 1024)
        var thread = pthread_t()
        let result = pthread_create(
            &thread, &attributes,
            { raw in
                guard let raw else { return nil }
                let context = Unmanaged<ThreadContext>.fromOpaque(raw).takeRetainedValue()
                context.monitor.serve(context.streams)
                return nil
            }, context)
        if result != 0 { Unmanaged<ThreadContext>.fromOpaque(context).release() }
        return result
    }

    /// The thread's work: the pipes until they end (or a timeout gives them up), then the exit.
    private func serve(_ initial: [Stream]) {
        // Signals go to other threads; a write to a closed pipe then fails with EPIPE here
        // instead of raising SIGPIPE.
        var all = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_BLOCK, &all, nil)
        _ = stratus_name_this_thread("stratus-child")

        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 16)
        defer { buffer.deallocate() }
        var streams = initial
        while !streams.isEmpty {
            var polled = streams.map { stream -> pollfd in
                if case .input = stream.role {
                    return pollfd(fd: stream.descriptor, events: Int16(POLLOUT), revents: 0)
                }
                return pollfd(fd: stream.descriptor, events: Int16(POLLIN), revents: 0)
            }
            if wakeRead >= 0 { polled.append(pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)) }
            let ready = SystemCall.retryingOnInterrupt { poll(&polled, nfds_t(polled.count), -1) }
            if ready < 0 { break }
            if wakeRead >= 0, polled[streams.count].revents != 0 { break }
            var open: [Stream] = []
            for (index, var stream) in streams.enumerated() {
                if polled[index].revents == 0 || transfer(&stream, buffer) {
                    open.append(stream)
                } else {
                    close(stream.descriptor)
                }
            }
            streams = open
        }
        for stream in streams { close(stream.descriptor) }

        var info = siginfo_t()
        _ = SystemCall.retryingOnInterrupt { waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOWAIT) }
        reap()
        if wakeRead >= 0 { close(wakeRead) }
    }

    /// Moves bytes on a ready pipe.
    /// - Returns: Whether the pipe stays open.
    private func transfer(_ stream: inout Stream, _ buffer: UnsafeMutableRawBufferPointer) -> Bool {
        switch stream.role {
        case .input(let bytes):
            let remaining = bytes.count - stream.written
            let count = bytes.withUnsafeBytes { raw in
                write(stream.descriptor, raw.baseAddress.map { $0 + stream.written }, min(remaining, 65_536))
            }
            if count < 0 { return errno == EAGAIN || errno == EINTR }
            stream.written += count
            return stream.written < bytes.count
        case .output(let limit), .error(let limit):
            let count = read(stream.descriptor, buffer.baseAddress, buffer.count)
            if count < 0 { return errno == EAGAIN || errno == EINTR }
            if count == 0 { return false }
            let isOutput = if case .output = stream.role { true } else { false }
            return keep(buffer[0..<count], isOutput: isOutput, limit: limit)
        }
    }

    /// Adds read bytes to an output, up to its limit.
    /// - Returns: Whether the limit still has room.
    private func keep(_ bytes: Slice<UnsafeMutableRawBufferPointer>, isOutput: Bool, limit: Int) -> Bool {
        locked {
            let held = isOutput ? standardOutput.count : standardError.count
            let room = max(0, limit - held)
            let kept = bytes.prefix(room)
            if isOutput { standardOutput.append(contentsOf: kept) } else { standardError.append(contentsOf: kept) }
            condition.broadcast()
            guard bytes.count <= room else {
                outputExceededLimit = true
                limitReached = limit
                return false
            }
            return true
        }
    }

    /// Reaps the exited child (`wait4`, keeping its resource usage) and wakes everyone waiting.
    private func reap() {
        var status: Int32 = 0
        var usage = rusage()
        let (ending, waiting) = locked {
            let reaped = SystemCall.retryingOnInterrupt { wait4(processIdentifier, &status, 0, &usage) }
            let ending = reaped == processIdentifier ? ChildProcess.Termination(waitStatus: status) : .exited(-1)
            termination = ending
            resourceUsage = reaped == processIdentifier ? ChildProcess.ResourceUsage(usage) : nil
            if wakeWrite >= 0 { close(wakeWrite) }
            wakeWrite = -1
            let waiting = waiters
            waiters = []
            condition.broadcast()
            return (ending, waiting)
        }
        for waiter in waiting { waiter.resume(returning: ending) }
    }

    /// After a failed thread start: reaps the (killed) child here.
    func abandon() {
        var info = siginfo_t()
        _ = SystemCall.retryingOnInterrupt { waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOWAIT) }
        reap()
        if wakeRead >= 0 { close(wakeRead) }
        closeHeldInput()
    }

    // MARK: Requests from other threads

    /// Sends a signal unless the child has been reaped.
    func signal(_ number: Int32) -> Bool {
        locked { termination == nil && kill(processIdentifier, number) == 0 }
    }

    func closeHeldInput() {
        locked {
            if heldInput >= 0 { close(heldInput) }
            heldInput = -1
        }
    }

    /// Kills the child after `timeout` unless it has ended by then, and wakes the thread to give
    /// up pipes that the child's own children may still hold.
    func expireAtTimeout() {
        guard let timeout else { return }
        let (seconds, attoseconds) = timeout.components
        let delay = max(0, Double(seconds) + Double(attoseconds) / 1e18)
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [self] in
            locked {
                guard termination == nil else { return }
                timedOut = true
                _ = kill(processIdentifier, SIGKILL)
                if wakeWrite >= 0 {
                    var byte: UInt8 = 1
                    _ = write(wakeWrite, &byte, 1)
                }
            }
        }
    }

    // MARK: Waiting

    func wait() async -> ChildProcess.Termination {
        await withCheckedContinuation { continuation in
            let ended: ChildProcess.Termination? = locked {
                if let termination { return termination }
                waiters.append(continuation)
                return nil
            }
            if let ended { continuation.resume(returning: ended) }
        }
    }

    func waitBlocking() -> ChildProcess.Termination {
        locked {
            while true {
                if let termination { return termination }
                condition.wait()
            }
        }
    }

    func waitBlocking(until done: (_ output: [UInt8], _ error: [UInt8]) -> Bool) -> Bool {
        locked {
            while true {
                if done(standardOutput, standardError) { return true }
                if termination != nil { return false }
                condition.wait()
            }
        }
    }

    /// What ``ChildProcess/finish()`` returns once the child has ended.
    func result(_ termination: ChildProcess.Termination) throws(ChildProcessError) -> ChildProcess.Result {
        let (timedOut, exceeded, limit, output, error, usage) = locked {
            (self.timedOut, outputExceededLimit, limitReached, standardOutput, standardError, resourceUsage)
        }
        if timedOut, let timeout { throw .timedOut(executable: executable, after: timeout) }
        if exceeded { throw .outputTooLarge(executable: executable, limit: limit) }
        return ChildProcess.Result(
            termination: termination, resourceUsage: usage, standardOutput: output, standardError: error)
    }
}

/// What the thread is started with.
private final class ThreadContext {
    let monitor: ChildProcessMonitor
    let streams: [ChildProcessMonitor.Stream]

    init(monitor: ChildProcessMonitor, streams: [ChildProcessMonitor.Stream]) {
        self.monitor = monitor
        self.streams = streams
    }
}
