import Synchronization

/// What one waiter of ``LocalService/waitForChanges(after:timeout:)`` is woken by: the journal
/// was written, the watch on the state folder was lost, the deadline passed, or the task was
/// cancelled. Anyone may raise a reason at any time; the waiter takes them one at a time.
///
/// A change or a lost watch is taken once (raising it again before the waiter looks counts
/// once); a passed deadline and a cancellation stay raised.
final class WakeSignal: Sendable {
    /// Why a waiter woke, in the order they are taken.
    enum Reason: Sendable, Equatable {
        /// The task was cancelled.
        case cancelled
        /// The watch on the state folder is gone (the folder was moved or deleted).
        case watchLost
        /// The journal was written, or it is time for a safety re-check.
        case changed
        /// The wait's deadline passed.
        case deadline
    }

    private struct State {
        var cancelled = false
        var watchLost = false
        var changed = false
        var deadline = false
        var waiter: CheckedContinuation<Void, Never>?

        var isRaised: Bool { cancelled || watchLost || changed || deadline }

        /// Takes the reason to report; `changed` and `watchLost` are cleared.
        mutating func take() -> Reason? {
            if cancelled { return .cancelled }
            if watchLost {
                watchLost = false
                return .watchLost
            }
            if changed {
                changed = false
                return .changed
            }
            return deadline ? .deadline : nil
        }
    }

    private let state = Mutex(State())

    /// Raises a reason and wakes the waiter, if one is waiting.
    func raise(_ reason: Reason) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            switch reason {
            case .cancelled: state.cancelled = true
            case .watchLost: state.watchLost = true
            case .changed: state.changed = true
            case .deadline: state.deadline = true
            }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Waits until a reason is raised (at once when one is), and takes it. Cancelling the
    /// calling task raises ``Reason/cancelled``.
    func next() async -> Reason {
        while true {
            if let reason = state.withLock({ $0.take() }) { return reason }
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let resumeNow = state.withLock { state -> Bool in
                        if state.isRaised { return true }
                        state.waiter = continuation
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
            } onCancel: {
                raise(.cancelled)
            }
        }
    }
}
