import Synchronization

/// The result of a task if it ends within a limit, or `nil` when it has not; a task that
/// overruns is left to finish on its own, so a service that never returns fails a check instead
/// of hanging it.
/// - Parameters:
///   - task: The task, already running.
///   - limit: How long to wait for it.
/// - Returns: What the task returned or threw, or `nil` after `limit`.
func result<Success: Sendable>(of task: Task<Success, any Error>, within limit: Duration) async -> Result<
    Success, any Error
>? {
    let outcome = FirstOutcome<Result<Success, any Error>?>()
    let finished = Task { outcome.settle(await task.result) }
    let timer = Task {
        try? await Task.sleep(for: limit)
        outcome.settle(nil)
    }
    let value = await outcome.value
    timer.cancel()
    finished.cancel()
    return value
}

/// A value settled once, by whichever of several racers comes first; later ones are ignored.
private final class FirstOutcome<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        var isSettled = false
        var waiter: CheckedContinuation<Value, Never>?
    }

    private let state = Mutex(State())

    /// Settles the value unless it is settled already.
    func settle(_ value: Value) {
        let waiter = state.withLock { state -> CheckedContinuation<Value, Never>? in
            guard !state.isSettled else { return nil }
            state.isSettled = true
            state.value = value
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: value)
    }

    /// The settled value, once there is one. One caller only.
    var value: Value {
        get async {
            await withCheckedContinuation { continuation in
                let settled = state.withLock { state -> Value? in
                    guard state.isSettled, let value = state.value else {
                        state.waiter = continuation
                        return nil
                    }
                    return value
                }
                if let settled { continuation.resume(returning: settled) }
            }
        }
    }
}
