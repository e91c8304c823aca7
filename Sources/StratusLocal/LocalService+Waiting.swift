import Logging
public import Stratus
import Synchronization

/// Waiting for changes: woken by the kernel when any process writes the change journal.
extension LocalService {
    /// The schedule a waiter polls on when change notifications are unavailable (inotify
    /// missing or exhausted): every 0.1 to 0.5 seconds, since reading the journal's end is a
    /// few system calls.
    public static let fallbackPollingSchedule = PollingSchedule(
        minimum: .milliseconds(100), maximum: .milliseconds(500))

    /// How often a notified waiter looks at the journal even though nothing woke it: the bound
    /// on a root whose writes the kernel cannot see (a network file system written from
    /// another machine).
    public static let safetyRecheckInterval = Duration.seconds(30)

    /// `notification`, waking within a second: the kernel reports a journal write within
    /// milliseconds, and the waiter then reads the journal once under the store lock, which
    /// every change holds only for its commit. The fallback schedule keeps the same bound.
    static let changeWaiting = ChangeWaiting(
        mechanism: .notification, wakeBound: .seconds(1), polling: fallbackPollingSchedule)

    /// Waits until the change journal has a change after a token, without polling: the store's
    /// state folder is watched with Linux inotify (one watch per root, shared by every waiter in
    /// the process), and each write of the journal, by this process or any other, wakes the
    /// waiters, who read the journal to confirm. A journal replaced by a new one wakes them too,
    /// and the token is then refused.
    ///
    /// Where inotify cannot be used (another system, or `fs.inotify.max_user_instances` or
    /// `max_user_watches` exhausted), the wait polls on ``fallbackPollingSchedule`` and logs a
    /// warning once per service. A root on a network file system written from another machine
    /// sends no notifications; such writes are seen within ``safetyRecheckInterval``.
    /// - Parameters:
    ///   - token: A token of this root.
    ///   - timeout: The longest to wait.
    /// - Returns: ``/Stratus/ChangeWaitOutcome/changesAvailable`` when ``changes(since:)`` has a
    ///   change to report, or ``/Stratus/ChangeWaitOutcome/timedOut``.
    /// - Throws: ``/Stratus/ServiceError`` as ``changes(since:)`` throws it for the token
    ///   (`invalidChangeToken` for a token of another root or of a replaced journal),
    ///   `cancelled` as soon as the task is cancelled.
    public func waitForChanges(after token: ChangeToken, timeout: Duration) async throws -> ChangeWaitOutcome {
        _ = try JournalPosition(token: token)
        if Task.isCancelled { throw Self.waitCancelled }
        let deadline = ContinuousClock.now + min(max(.zero, timeout), ChangeWaiting.longestTimeout)
        let signal = WakeSignal()
        let timer = Task {
            while true {
                let now = ContinuousClock.now
                guard now < deadline else { return signal.raise(.deadline) }
                let next = min(deadline, now + Self.safetyRecheckInterval)
                do { try await Task.sleep(until: next, clock: .continuous) } catch { return }
                if next < deadline { signal.raise(.changed) }
            }
        }
        defer { timer.cancel() }

        let folder = store.layout.state
        var subscription: JournalWatcher.Subscription?
        defer {
            if let subscription { watcher.unsubscribe(subscription) }
        }
        do {
            subscription = try watcher.subscribe(folder: folder, signal: signal)
        } catch {
            return try await pollInstead(after: token, until: deadline, because: error)
        }
        while true {
            if try await hasChanges(since: token) { return .changesAvailable }
            switch await signal.next() {
            case .cancelled:
                throw Self.waitCancelled
            case .changed:
                continue
            case .deadline:
                return try await hasChanges(since: token) ? .changesAvailable : .timedOut
            case .watchLost:
                // The state folder was moved or deleted; watch whatever is at its path now.
                if let lost = subscription { watcher.unsubscribe(lost) }
                subscription = nil
                do {
                    subscription = try watcher.subscribe(folder: folder, signal: signal)
                } catch {
                    return try await pollInstead(after: token, until: deadline, because: error)
                }
            }
        }
    }

    private static var waitCancelled: ServiceError {
        ServiceError(.cancelled, "Waiting for changes was cancelled.")
    }

    /// Whether the journal has a change after a token.
    private func hasChanges(since token: ChangeToken) async throws -> Bool {
        let store = self.store
        return try await perform("read the change journal") { _ in try store.hasChanges(since: token) }
    }

    /// Polls on the fallback schedule until the deadline, after logging why.
    private func pollInstead(
        after token: ChangeToken, until deadline: ContinuousClock.Instant, because error: any Error
    ) async throws -> ChangeWaitOutcome {
        let firstTime = !reportedFallback.exchange(true, ordering: .relaxed)
        logger.log(
            level: firstTime ? .warning : .debug,
            "Change notifications are unavailable; waiting for changes by polling the change journal instead",
            metadata: ["root": "\(root.path)", "reason": "\(error)"])
        return try await pollForChanges(
            after: token, timeout: deadline - ContinuousClock.now, schedule: capabilities.changeWaiting.polling)
    }
}
