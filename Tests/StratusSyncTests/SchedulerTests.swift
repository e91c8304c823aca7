import Synchronization
import Testing

@testable import StratusSync

/// The scheduler's decisions as tables (no I/O), then the scheduler running real jobs.
@Suite struct SchedulerTests {
    typealias Job = SchedulerState.Job

    @Test func decisionsFollowTheTable() {
        var state = SchedulerState()
        let sync1 = Job(id: 1, kind: .sync)
        let sync2 = Job(id: 2, kind: .sync)
        let compaction = Job(id: 3, kind: .exclusive)
        let steps: [(String, (inout SchedulerState) -> String, String)] = [
            ("a sync while idle starts", { "\($0.request(.sync))" }, "\(SchedulerState.RequestAction.start(sync1))"),
            (
                "a sync while one runs queues one", { "\($0.request(.sync))" },
                "\(SchedulerState.RequestAction.wait(sync2))"
            ),
            ("another joins the queued one", { "\($0.request(.sync))" }, "\(SchedulerState.RequestAction.wait(sync2))"),
            (
                "an exclusive job queues behind", { "\($0.request(.exclusive))" },
                "\(SchedulerState.RequestAction.wait(compaction))"
            ),
            (
                "a stale finish changes nothing", { "\($0.finished(sync2))" },
                "\(SchedulerState.FinishAction.becameIdle)"
            ),
            (
                "the first ends: the queued sync starts", { "\($0.finished(sync1))" },
                "\(SchedulerState.FinishAction.start(sync2))"
            ),
            (
                "a sync now queues a new one", { "\($0.request(.sync))" },
                "\(SchedulerState.RequestAction.wait(Job(id: 4, kind: .sync)))"
            ),
            (
                "the sync ends: the exclusive job (asked first) starts", { "\($0.finished(sync2))" },
                "\(SchedulerState.FinishAction.start(compaction))"
            ),
            (
                "stopping drops the queued sync", { "\($0.stop())" },
                "\(SchedulerState.StopAction.waitForRunning(compaction, dropped: [Job(id: 4, kind: .sync)]))"
            ),
            (
                "nothing is accepted while stopping", { "\($0.request(.sync))" },
                "\(SchedulerState.RequestAction.refuse)"
            ),
            ("a second stop is a no-op", { "\($0.stop())" }, "\(SchedulerState.StopAction.alreadyStopping)"),
            (
                "the running job ends: stopped", { "\($0.finished(compaction))" },
                "\(SchedulerState.FinishAction.stopped)"
            ),
        ]
        for (name, step, expected) in steps {
            #expect(step(&state) == expected, "\(name)")
        }
        #expect(state.phase == .stopped)
        var idle = SchedulerState()
        #expect(idle.stop() == .stoppedNow)
        #expect(idle.request(.exclusive) == .refuse)
    }

    @Test func callsDuringARunShareOneFollowUpRun() async throws {
        let scheduler = SyncScheduler()
        let runs = Mutex(0)
        let (release, releaser) = AsyncStream<Void>.makeStream()
        let (started, starter) = AsyncStream<Int>.makeStream()
        let body: @Sendable () async throws -> SyncReport = {
            let number = runs.withLock { runs in
                runs += 1
                return runs
            }
            starter.yield(number)
            if number == 1 { for await _ in release { break } }
            var report = SyncReport()
            report.pulled = [try RecordKey(type: "run", id: "\(number)")]
            return report
        }
        var starts = started.makeAsyncIterator()
        let first = Task { try await scheduler.sync(body) }
        #expect(await starts.next() == 1)
        // Three calls while the first run is held: they share one follow-up run.
        let second = Task { try await scheduler.sync(body) }
        let third = Task { try await scheduler.sync(body) }
        let fourth = Task { try await scheduler.sync(body) }
        while scheduler.waitingCalls < 4 { try await Task.sleep(for: .milliseconds(5)) }
        releaser.yield()
        #expect(try await first.value.pulled.map(\.id) == ["1"])
        for call in [second, third, fourth] {
            #expect(try await call.value.pulled.map(\.id) == ["2"], "a call made during run 1 gets run 2's report")
        }
        #expect(runs.withLock { $0 } == 2)
        // With nothing running, a call starts a run of its own.
        #expect(try await scheduler.sync(body).pulled.map(\.id) == ["3"])
    }

    @Test func anExclusiveJobNeverOverlapsASyncAndStopWaitsForTheRunningOne() async throws {
        let scheduler = SyncScheduler()
        let active = Mutex((now: 0, most: 0))
        let (release, releaser) = AsyncStream<Void>.makeStream()
        let enter: @Sendable () -> Void = {
            active.withLock { state in
                state.now += 1
                state.most = max(state.most, state.now)
            }
        }
        let leave: @Sendable () -> Void = { active.withLock { $0.now -= 1 } }
        let held = Task {
            try await scheduler.sync {
                enter()
                for await _ in release { break }
                leave()
                return SyncReport()
            }
        }
        while scheduler.waitingCalls < 1 { try await Task.sleep(for: .milliseconds(5)) }
        let compaction = Task {
            try await scheduler.exclusive {
                enter()
                leave()
                return 42
            }
        }
        let queuedSync = Task { try await scheduler.sync { SyncReport() } }
        while scheduler.waitingCalls < 3 { try await Task.sleep(for: .milliseconds(5)) }
        let stopping = Task { await scheduler.stop() }
        // The queued jobs are dropped by the stop; the running one is waited for.
        await #expect(throws: SyncError.self) { try await compaction.value }
        await #expect(throws: SyncError.self) { try await queuedSync.value }
        releaser.yield()
        _ = try await held.value
        await stopping.value
        #expect(active.withLock { $0.most } == 1)
        await #expect(throws: SyncError.self) { try await scheduler.sync { SyncReport() } }
    }

    @Test func cancellingACallerCancelsTheRunItWaitsFor() async throws {
        let scheduler = SyncScheduler()
        let (entered, enteredSink) = AsyncStream<Void>.makeStream()
        let call = Task {
            try await scheduler.sync {
                enteredSink.yield()
                try await Task.sleep(for: .seconds(3600))
                return SyncReport()
            }
        }
        var iterator = entered.makeAsyncIterator()
        await iterator.next()
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
    }
}
