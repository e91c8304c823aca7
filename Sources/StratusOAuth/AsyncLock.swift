import Stratus
import Synchronization

/// A lock for async code: one holder at a time, the others suspended (not blocking a thread) in
/// the order they arrived.
final class AsyncLock: Sendable {
    private struct State {
        var locked = false
        var nextID = 0
        var waiters: [(id: Int, continuation: CheckedContinuation<Void, any Error>)] = []
    }

    private let state = Mutex(State())

    /// Runs `body` while holding the lock.
    /// - Throws: ``Stratus/ServiceError`` with code `cancelled` when the task is cancelled while
    ///   waiting, or what `body` throws.
    func withLock<Result: Sendable>(_ body: () async throws -> Result) async throws -> Result {
        try await lock()
        do {
            let result = try await body()
            unlock()
            return result
        } catch {
            unlock()
            throw error
        }
    }

    private func lock() async throws {
        let id = state.withLock { state -> Int? in
            if !state.locked {
                state.locked = true
                return nil
            }
            state.nextID += 1
            return state.nextID
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let cancelled = state.withLock { state -> Bool in
                    if Task.isCancelled { return true }
                    state.waiters.append((id, continuation))
                    return false
                }
                if cancelled { continuation.resume(throwing: Self.cancelled) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index).continuation
            }
            waiter?.resume(throwing: Self.cancelled)
        }
    }

    private func unlock() {
        let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            if state.waiters.isEmpty {
                state.locked = false
                return nil
            }
            // The lock passes straight to the next waiter and stays locked.
            return state.waiters.removeFirst().continuation
        }
        next?.resume()
    }

    private static var cancelled: ServiceError {
        ServiceError(.cancelled, "The task was cancelled while waiting for the token store.")
    }
}
