import Synchronization

/// Runs a store's syncs and exclusive jobs one at a time, as ``SchedulerState`` decides: the
/// one serialiser behind ``SyncStore/sync()``, automatic sync, compaction and shutdown.
///
/// A call waits for the job it was given (started now or queued). Cancelling a call that waits
/// for a running job cancels that job, for every call sharing it; a call that waits for a
/// queued job just stops waiting.
final class SyncScheduler: Sendable {
    typealias Body = @Sendable () async throws -> any Sendable

    private struct Slot {
        var body: Body
        var waiters: [Int: CheckedContinuation<any Sendable, any Error>] = [:]
        var task: Task<Void, Never>?
    }

    /// Where one call stands, for its cancellation handler.
    private enum CallState {
        case pending
        case waiting(job: Int, caller: Int)
        case cancelled
    }

    private struct Locked {
        var state = SchedulerState()
        var slots: [Int: Slot] = [:]
        var callers = 0
        var stopWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let locked = Mutex(Locked())

    /// How many calls wait for a job now (for tests).
    var waitingCalls: Int { locked.withLock { $0.slots.values.reduce(0) { $0 + $1.waiters.count } } }

    /// Runs a sync, or joins the one queued behind the running job (which then runs the body
    /// of the call that queued it: every sync body does the same work).
    func sync(_ body: @escaping @Sendable () async throws -> SyncReport) async throws -> SyncReport {
        let result = try await perform(.sync, body: { try await body() })
        guard let report = result as? SyncReport else {
            throw SyncError(.database, "A sync run returned no report.")
        }
        return report
    }

    /// Runs `body` alone, after the jobs asked for before it.
    func exclusive<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let result = try await perform(.exclusive, body: { try await body() })
        guard let value = result as? T else { throw SyncError(.database, "A job returned the wrong result.") }
        return value
    }

    /// Refuses new jobs, drops the queued ones (their calls throw `cancelled`) and waits for
    /// the running job to end; with `cancelRunning`, cancels it first.
    func stop(cancelRunning: Bool = false) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let (dropped, resumeNow, running) = locked.withLock {
                locked -> ([CheckedContinuation<any Sendable, any Error>], Bool, Task<Void, Never>?) in
                switch locked.state.stop() {
                case .stoppedNow:
                    return ([], true, nil)
                case .alreadyStopping:
                    if locked.state.phase == .stopped { return ([], true, nil) }
                    locked.stopWaiters.append(continuation)
                    return ([], false, nil)
                case .waitForRunning(let job, let droppedJobs):
                    locked.stopWaiters.append(continuation)
                    var waiters: [CheckedContinuation<any Sendable, any Error>] = []
                    for dropped in droppedJobs {
                        waiters += locked.slots.removeValue(forKey: dropped.id)?.waiters.values.map { $0 } ?? []
                    }
                    return (waiters, false, locked.slots[job.id]?.task)
                }
            }
            for waiter in dropped {
                waiter.resume(throwing: SyncError(.cancelled, "The store is shutting down; the sync did not start."))
            }
            if cancelRunning { running?.cancel() }
            if resumeNow { continuation.resume() }
        }
    }

    private func perform(_ kind: SchedulerState.Kind, body: @escaping Body) async throws -> any Sendable {
        let call = Mutex(CallState.pending)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<any Sendable, any Error>) in
                let refused = locked.withLock { locked -> Bool in
                    let job: SchedulerState.Job
                    switch locked.state.request(kind) {
                    case .refuse: return true
                    case .start(let started):
                        job = started
                        locked.slots[job.id] = Slot(body: body)
                        launch(job, in: &locked)
                    case .wait(let queued):
                        job = queued
                        if locked.slots[job.id] == nil { locked.slots[job.id] = Slot(body: body) }
                    }
                    locked.callers += 1
                    let caller = locked.callers
                    locked.slots[job.id]?.waiters[caller] = continuation
                    let wasCancelled = call.withLock { state -> Bool in
                        if case .cancelled = state { return true }
                        state = .waiting(job: job.id, caller: caller)
                        return false
                    }
                    if wasCancelled { cancel(job: job.id, caller: caller, in: &locked) }
                    return false
                }
                if refused {
                    continuation.resume(throwing: SyncError(.cancelled, "The store is shut down; nothing was synced."))
                }
            }
        } onCancel: {
            let waiting = call.withLock { state -> (Int, Int)? in
                if case .waiting(let job, let caller) = state { return (job, caller) }
                state = .cancelled
                return nil
            }
            if let (job, caller) = waiting {
                locked.withLock { cancel(job: job, caller: caller, in: &$0) }
            }
        }
    }

    /// A call was cancelled: a running job is cancelled for all; a queued one loses the caller.
    private func cancel(job: Int, caller: Int, in locked: inout Locked) {
        if locked.state.running?.id == job {
            locked.slots[job]?.task?.cancel()
        } else if let waiter = locked.slots[job]?.waiters.removeValue(forKey: caller) {
            waiter.resume(throwing: SyncError(.cancelled, "Waiting for the sync was cancelled."))
        }
    }

    /// Starts a job's task; called under the lock, so the task cannot finish before it is kept.
    private func launch(_ job: SchedulerState.Job, in locked: inout Locked) {
        guard let body = locked.slots[job.id]?.body else { return }
        locked.slots[job.id]?.task = Task { [self] in
            let result: Result<any Sendable, any Error>
            do {
                result = .success(try await body())
            } catch {
                result = .failure(error)
            }
            finish(job, result)
        }
    }

    private func finish(_ job: SchedulerState.Job, _ result: Result<any Sendable, any Error>) {
        let (waiters, stopWaiters) = locked.withLock {
            locked -> ([CheckedContinuation<any Sendable, any Error>], [CheckedContinuation<Void, Never>]) in
            let waiters = locked.slots.removeValue(forKey: job.id)?.waiters.values.map { $0 } ?? []
            switch locked.state.finished(job) {
            case .start(let next):
                launch(next, in: &locked)
                return (waiters, [])
            case .becameIdle:
                return (waiters, [])
            case .stopped:
                defer { locked.stopWaiters.removeAll() }
                return (waiters, locked.stopWaiters)
            }
        }
        for waiter in waiters { waiter.resume(with: result) }
        for waiter in stopWaiters { waiter.resume() }
    }
}
