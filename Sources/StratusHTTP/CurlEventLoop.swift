import CCurl
import CLinux
import Foundation
import Logging
import Synchronization

/// One libcurl multi handle and the one thread that drives it.
///
/// Other threads never touch the multi handle or a running transfer: they put commands in the
/// `inbox` and wake the thread with `curl_multi_wakeup`, which libcurl allows from any thread.
///
/// `@unchecked Sendable`: `multi`, `active` and `configuration` are used only on the loop
/// thread after `init`; every cross-thread exchange goes through the `inbox` Mutex, and
/// `curl_multi_wakeup` is called only while holding it and only before `stopped` is set, so it
/// never reaches a cleaned-up multi handle.
final class CurlEventLoop: @unchecked Sendable {
    private enum Command {
        case start(CurlTransfer)
        case cancel(CurlTransfer, StratusHTTPClientError)
        case resume(CurlTransfer)
    }

    private struct Inbox {
        var commands: [Command] = []
        var shuttingDown = false
        var stopped = false
        var shutdownWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let multi: UnsafeMutableRawPointer
    private let configuration: StratusHTTPClient.Configuration
    private let inbox = Mutex(Inbox())
    private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]

    init(configuration: StratusHTTPClient.Configuration) throws(StratusHTTPClientError) {
        guard CurlGlobal.ensureInitialised() else {
            throw StratusHTTPClientError(.transport, "libcurl could not be initialised.")
        }
        guard let multi = curl_multi_init() else {
            throw StratusHTTPClientError(.transport, "libcurl could not create a multi handle.")
        }
        self.multi = multi
        self.configuration = configuration
        if let limit = configuration.maximumConnectionsPerHost {
            _ = stratus_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, limit)
        }
        // Linux keeps 15 bytes of a thread's name, set from the thread itself.
        let name = String(decoding: configuration.threadName.utf8.prefix(15), as: UTF8.self)
        let thread = Thread { [self] in
            _ = stratus_name_this_thread(name)
            run()
        }
        thread.name = configuration.threadName
        thread.start()
    }

    // MARK: Any thread

    /// Hands a transfer to the loop; fails it at once when the loop has stopped.
    func submit(_ transfer: CurlTransfer) {
        if !post(.start(transfer)) {
            transfer.complete(with: StratusHTTPClientError(.shutDown, "The HTTP client was shut down."))
        }
    }

    /// Asks the loop to stop a transfer.
    func cancel(_ transfer: CurlTransfer, reason: StratusHTTPClientError) {
        if !transfer.isCancelRequested.exchange(true, ordering: .acquiringAndReleasing) {
            _ = post(.cancel(transfer, reason))
        }
    }

    /// Asks the loop to resume a transfer that paused for its caller.
    func resume(_ transfer: CurlTransfer) {
        _ = post(.resume(transfer))
    }

    /// Fails every transfer with `shutDown`, stops the thread, and returns when it has.
    func shutdown() async {
        await withCheckedContinuation { continuation in
            let alreadyStopped = inbox.withLock { inbox -> Bool in
                if inbox.stopped { return true }
                inbox.shuttingDown = true
                inbox.shutdownWaiters.append(continuation)
                curl_multi_wakeup(multi)
                return false
            }
            if alreadyStopped { continuation.resume() }
        }
    }

    /// Asks the thread to stop without waiting for it.
    func requestShutdown() {
        inbox.withLock { inbox in
            guard !inbox.stopped else { return }
            inbox.shuttingDown = true
            curl_multi_wakeup(multi)
        }
    }

    private func post(_ command: Command) -> Bool {
        inbox.withLock { inbox in
            guard !inbox.stopped else { return false }
            inbox.commands.append(command)
            curl_multi_wakeup(multi)
            return true
        }
    }

    // MARK: Loop thread

    private func run() {
        var runningHandles: Int32 = 0
        while true {
            let (commands, shuttingDown) = inbox.withLock { inbox in
                defer { inbox.commands.removeAll(keepingCapacity: true) }
                return (inbox.commands, inbox.shuttingDown)
            }
            for command in commands { handle(command) }
            if shuttingDown { break }

            curl_multi_perform(multi, &runningHandles)
            collectFinished()
            failStalledTransfers()

            var timeout = 0
            curl_multi_timeout(multi, &timeout)
            // Commands wake the poll at once; otherwise it waits for libcurl's next timer or the
            // next stall deadline, so a held request (a long poll) costs no wake-ups while idle.
            let limit = millisecondsUntilNextStall()
            let wait = timeout < 0 ? limit : min(timeout, limit)
            curl_multi_poll(multi, nil, 0, Int32(wait), nil)
        }
        stop()
    }

    private func handle(_ command: Command) {
        switch command {
        case .start(let transfer):
            start(transfer)
        case .cancel(let transfer, let reason):
            if let easy = transfer.easy, active[easy] === transfer {
                finish(transfer, easy: easy, error: reason)
            }
        case .resume(let transfer):
            if let easy = transfer.easy, active[easy] === transfer {
                transfer.isPausedForCaller = false
                transfer.lastActivity = .now
                curl_easy_pause(easy, STRATUS_CURLPAUSE_CONT)
            }
        }
    }

    private func start(_ transfer: CurlTransfer) {
        if transfer.isCancelRequested.load(ordering: .acquiring) {
            transfer.complete(with: StratusHTTPClientError(.cancelled, "The request was cancelled."))
            return
        }
        do {
            let easy = try transfer.makeHandle(configuration: configuration)
            transfer.start(wake: { [weak self, weak transfer] in
                if let self, let transfer { self.resume(transfer) }
            })
            transfer.lastActivity = .now
            active[easy] = transfer
            let code = curl_multi_add_handle(multi, easy)
            if code != CURLM_OK {
                active[easy] = nil
                transfer.complete(
                    with: StratusHTTPClientError(
                        .transport, "libcurl refused the request: \(String(cString: curl_multi_strerror(code)))."))
                return
            }
            configuration.logger.trace("HTTP request started", metadata: ["request": "\(transfer.request)"])
        } catch {
            transfer.complete(with: error)
        }
    }

    private func collectFinished() {
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                let transfer = active[easy]
            else { continue }
            let code = message.pointee.data.result
            let error: StratusHTTPClientError?
            if let failure = transfer.failure {
                error = failure
            } else if code != CURLE_OK {
                error = StratusHTTPClientError.fromCurl(code, detail: transfer.curlErrorDetail)
            } else {
                error = nil
            }
            finish(transfer, easy: easy, error: error)
        }
    }

    /// How long until the first running transfer would count as stalled, in milliseconds (at
    /// least 1, at most 10 seconds).
    private func millisecondsUntilNextStall() -> Int {
        let now = ContinuousClock.now
        var earliest = 10_000
        for transfer in active.values where !transfer.isPausedForCaller {
            guard let stall = transfer.request.stallTimeout ?? configuration.timeouts.stall else { continue }
            let left = transfer.lastActivity + stall - now
            let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
            earliest = min(earliest, Int(max(1, min(10_000, milliseconds + 1))))
        }
        return earliest
    }

    private func failStalledTransfers() {
        let now = ContinuousClock.now
        for (easy, transfer) in active where !transfer.isPausedForCaller {
            guard let stall = transfer.request.stallTimeout ?? configuration.timeouts.stall,
                now - transfer.lastActivity > stall
            else { continue }
            finish(
                transfer, easy: easy,
                error: StratusHTTPClientError(.stalled, "No data moved for \(stall); the transfer was stopped."))
        }
    }

    private func finish(_ transfer: CurlTransfer, easy: UnsafeMutableRawPointer, error: StratusHTTPClientError?) {
        curl_multi_remove_handle(multi, easy)
        active[easy] = nil
        if let error {
            configuration.logger.debug(
                "HTTP request failed", metadata: ["request": "\(transfer.request)", "error": "\(error.code)"])
        }
        transfer.complete(with: error)
    }

    private func stop() {
        let (leftover, waiters) = inbox.withLock { inbox in
            inbox.stopped = true
            defer {
                inbox.commands.removeAll()
                inbox.shutdownWaiters.removeAll()
            }
            return (inbox.commands, inbox.shutdownWaiters)
        }
        let reason = StratusHTTPClientError(.shutDown, "The HTTP client was shut down.")
        for (easy, transfer) in active { finish(transfer, easy: easy, error: reason) }
        for case .start(let transfer) in leftover { transfer.complete(with: reason) }
        curl_multi_cleanup(multi)
        for waiter in waiters { waiter.resume() }
    }
}
