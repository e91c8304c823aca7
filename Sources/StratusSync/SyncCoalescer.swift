import Synchronization

/// Makes concurrent ``SyncStore/sync()`` calls share runs without missing anything: a call made
/// while no sync runs starts one; a call made while one runs waits for one follow-up run, shared
/// by every call that arrives before it starts. So the report a call gets always covers the
/// changes saved before the call, and at most two runs are ever queued.
final class SyncCoalescer: Sendable {
    private struct Run {
        var id: Int
        var task: Task<SyncReport, any Error>
    }

    private struct State {
        var running: Run?
        var next: Run?
        var made = 0
        var callers = 0
    }

    /// How many calls are waiting for a run now.
    var waitingCalls: Int { state.withLock { $0.callers } }

    private let state = Mutex(State())

    func run(_ body: @escaping @Sendable () async throws -> SyncReport) async throws -> SyncReport {
        let task = state.withLock { state -> Task<SyncReport, any Error> in
            state.callers += 1
            if let next = state.next { return next.task }
            state.made += 1
            let id = state.made
            let previous = state.running?.task
            let task = Task { [weak self] in
                if let previous { _ = try? await previous.value }
                self?.state.withLock { state in
                    if state.next?.id == id {
                        state.running = state.next
                        state.next = nil
                    }
                }
                defer { self?.state.withLock { state in if state.running?.id == id { state.running = nil } } }
                return try await body()
            }
            if previous == nil { state.running = Run(id: id, task: task) } else { state.next = Run(id: id, task: task) }
            return task
        }
        defer { state.withLock { $0.callers -= 1 } }
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }
}
