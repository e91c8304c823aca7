import Synchronization

/// Holds a task so a callback that may run before the task is stored can still cancel it:
/// a cancel that comes first is remembered and applied when the task arrives.
final class TaskHandle: Sendable {
    private struct State {
        var cancel: (@Sendable () -> Void)?
        var cancelRequested = false
    }

    private let state = Mutex(State())

    func set<Success: Sendable>(_ task: Task<Success, any Error>) {
        let cancelNow = state.withLock { state in
            state.cancel = { task.cancel() }
            return state.cancelRequested
        }
        if cancelNow { task.cancel() }
    }

    func cancel() {
        let cancel = state.withLock { state in
            state.cancelRequested = true
            return state.cancel
        }
        cancel?()
    }
}
