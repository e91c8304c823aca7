/// The sync scheduler's decisions, apart from any I/O: which job runs, which call joins which
/// run, and what stopping means. ``SyncScheduler`` keeps one of these under its lock and does
/// what each transition returns.
///
/// Two kinds of job share one lane, so at most one runs at a time:
/// - a **sync** run: a request while no run is queued starts (or queues) one; a request while
///   one is queued joins it, so every call made before a run starts is covered by that run, and
///   at most one sync waits behind the running job;
/// - an **exclusive** job (compaction): never shared, queued in arrival order.
///
/// Queued jobs start in the order they were asked for. Once stopping, nothing new is accepted,
/// the queued jobs are dropped (their callers are told), and the running job is waited for.
struct SchedulerState: Sendable, Equatable {
    /// A job's kind.
    enum Kind: Sendable, Equatable {
        case sync
        case exclusive
    }

    /// A job: its number (in the order asked for) and kind.
    struct Job: Sendable, Equatable {
        var id: Int
        var kind: Kind
    }

    /// The lane's phase.
    enum Phase: Sendable, Equatable {
        /// Nothing runs.
        case idle
        /// A job runs; `queued` wait behind it (at most one sync among them).
        case running(Job, queued: [Job])
        /// Stopping: the job named runs to its end, nothing else will.
        case stopping(Job)
        /// Stopped for good.
        case stopped
    }

    /// What to do after a request.
    enum RequestAction: Sendable, Equatable {
        /// Start this job now.
        case start(Job)
        /// Wait for this job, which starts later (or was already queued by another call).
        case wait(Job)
        /// The scheduler is stopping or stopped: refuse the call.
        case refuse
    }

    /// What to do after a job finished.
    enum FinishAction: Sendable, Equatable {
        /// Start this job now.
        case start(Job)
        /// Nothing more to run.
        case becameIdle
        /// The last job before the stop ended.
        case stopped
    }

    /// What to do when asked to stop.
    enum StopAction: Sendable, Equatable {
        /// Wait for the running job; the listed queued jobs will never run.
        case waitForRunning(Job, dropped: [Job])
        /// Nothing was running: stopped now.
        case stoppedNow
        /// Already stopping or stopped.
        case alreadyStopping
    }

    private(set) var phase = Phase.idle
    private var made = 0

    /// A call asks for a job of a kind.
    mutating func request(_ kind: Kind) -> RequestAction {
        switch phase {
        case .idle:
            let job = makeJob(kind)
            phase = .running(job, queued: [])
            return .start(job)
        case .running(let current, var queued):
            if kind == .sync, let shared = queued.first(where: { $0.kind == .sync }) {
                return .wait(shared)
            }
            let job = makeJob(kind)
            queued.append(job)
            phase = .running(current, queued: queued)
            return .wait(job)
        case .stopping, .stopped:
            return .refuse
        }
    }

    /// The running job ended (however it ended).
    mutating func finished(_ job: Job) -> FinishAction {
        switch phase {
        case .running(let current, var queued) where current == job:
            guard !queued.isEmpty else {
                phase = .idle
                return .becameIdle
            }
            let next = queued.removeFirst()
            phase = .running(next, queued: queued)
            return .start(next)
        case .stopping(let current) where current == job:
            phase = .stopped
            return .stopped
        default:
            // Not the running job: nothing changes (a stale report cannot disturb the lane).
            return .becameIdle
        }
    }

    /// Stop for good.
    mutating func stop() -> StopAction {
        switch phase {
        case .idle:
            phase = .stopped
            return .stoppedNow
        case .running(let current, let queued):
            phase = .stopping(current)
            return .waitForRunning(current, dropped: queued)
        case .stopping, .stopped:
            return .alreadyStopping
        }
    }

    /// The job that runs now, if any.
    var running: Job? {
        switch phase {
        case .running(let job, _), .stopping(let job): job
        case .idle, .stopped: nil
        }
    }

    private mutating func makeJob(_ kind: Kind) -> Job {
        made += 1
        return Job(id: made, kind: kind)
    }
}
