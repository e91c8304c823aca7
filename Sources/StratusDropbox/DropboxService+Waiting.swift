public import Stratus
import StratusAdapterKit
import Synchronization

/// Waiting for changes with `files/list_folder/longpoll` on the notify host.
///
/// Dropbox holds the request until the cursor has changes or its timeout passes (30 to 480
/// seconds, plus up to 90 seconds of its own jitter). The route takes no `Authorization`: the
/// cursor is the credential, so no token is sent to the notify host. An answer may carry
/// `backoff`, seconds to wait before the next long poll; the service keeps it, so the next long
/// poll of this instance, in this call or a later one, waits it out.
extension DropboxService {
    /// The shortest hold Dropbox takes, in seconds: a shorter wait still asks for it and stops
    /// the request at its own deadline.
    static let shortestLongpoll: Int64 = 30
    /// The longest hold Dropbox takes, in seconds.
    static let longestLongpoll: Int64 = 480
    /// The most Dropbox adds to a hold, at random.
    static let longpollJitter = Duration.seconds(90)

    /// `longPoll`, waking within 5 seconds of a change: Dropbox answers a held long poll soon
    /// after the cursor's folder changes (a `backoff` it asks for can delay the next long poll
    /// beyond that).
    static let changeWaiting = ChangeWaiting.longPoll(wakeBound: .seconds(5))

    /// Waits with `files/list_folder/longpoll` until the token's cursor has changes, the
    /// timeout passes, or the task is cancelled; the request is stopped at the caller's
    /// deadline, even when it asked Dropbox for a longer hold (a timeout under 30 seconds still
    /// asks for 30). A `backoff` Dropbox gave is waited out before the next long poll.
    /// - Parameters:
    ///   - token: A token of this adapter.
    ///   - timeout: The longest to wait.
    /// - Returns: ``/Stratus/ChangeWaitOutcome/changesAvailable`` when Dropbox reports changes,
    ///   or ``/Stratus/ChangeWaitOutcome/timedOut``.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidChangeToken`` for a token this adapter did
    ///   not issue or a cursor Dropbox resets, as ``changes(since:)`` does;
    ///   ``/Stratus/ServiceError/Code/cancelled`` when the task is cancelled; the mapped error of
    ///   a failure the retry policy does not overcome.
    public func waitForChanges(after token: ChangeToken, timeout: Duration) async throws -> ChangeWaitOutcome {
        try await guarded {
            let since = try DropboxChangeCursor(token)
            let deadline = ContinuousClock.now + min(max(.zero, timeout), ChangeWaiting.longestTimeout)
            var first = true
            while true {
                try Task.checkCancellation()
                if !first, ContinuousClock.now >= deadline { return .timedOut }
                first = false
                if let until = longpollBackoff.withLock({ $0 }), until > ContinuousClock.now {
                    try await Task.sleep(until: min(until, deadline), clock: .continuous)
                    if until >= deadline { return .timedOut }
                }
                guard let result = try await longpoll(since.cursor, until: deadline) else { return .timedOut }
                if let backoff = result.backoff, backoff > 0 {
                    let until = ContinuousClock.now + .seconds(backoff)
                    longpollBackoff.withLock { $0 = max($0 ?? until, until) }
                    logger.debug("Dropbox asked for a long-poll backoff", metadata: ["seconds": "\(backoff)"])
                }
                if result.changes { return .changesAvailable }
            }
        }
    }

    /// One long poll, stopped at the deadline.
    /// - Returns: Dropbox's answer, or `nil` when the deadline came first.
    private func longpoll(_ cursor: String, until deadline: ContinuousClock.Instant) async throws
        -> DropboxLongpollResult?
    {
        let remaining = deadline - ContinuousClock.now
        let wanted = remaining.components.seconds + (remaining.components.attoseconds > 0 ? 1 : 0)
        let seconds = min(max(wanted, Self.shortestLongpoll), Self.longestLongpoll)
        let argument = StoneValue.object([("cursor", .string(cursor)), ("timeout", .integer(seconds))])
        // Dropbox may hold the request for the timeout plus its jitter; past that (and a margin
        // for the answer) the request counts as stalled.
        let hold = .seconds(seconds) + Self.longpollJitter + .seconds(30)
        let transport = self.transport
        return try await withThrowingTaskGroup(of: DropboxLongpollResult?.self) { group in
            group.addTask {
                try await transport.rpcWithResponse(
                    "files/list_folder/longpoll", argument, as: DropboxLongpollResult.self, host: .notify, hold: hold
                ).result
            }
            group.addTask {
                try await Task.sleep(until: deadline, clock: .continuous)
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
    }
}
