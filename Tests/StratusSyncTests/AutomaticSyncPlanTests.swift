import Testing

@testable import StratusSync

/// When automatic sync runs next, as tables of cases (no I/O, no clock of its own).
@Suite struct AutomaticSyncPlanTests {
    let configuration = AutomaticSyncConfiguration(
        debounce: .milliseconds(500), maximumDelay: .seconds(5), firstRetry: .seconds(1), maximumRetry: .seconds(60),
        maximumOfflineRetry: .seconds(10), jitter: 0.2)
    let start = ContinuousClock.now

    @Test func writesWaitForTheirDebounceButNotForever() {
        var plan = AutomaticSyncPlan(configuration: configuration)
        #expect(plan.nextSync(now: start) == nil, "nothing to do")
        plan.localWrite(at: start)
        #expect(plan.nextSync(now: start) == start + .milliseconds(500))
        // Writes every 400 ms keep pushing the debounce back, up to the maximum delay.
        for step in 1...20 { plan.localWrite(at: start + .milliseconds(400 * step)) }
        #expect(plan.nextSync(now: start + .seconds(8)) == start + .seconds(5))
        plan.syncStarted()
        #expect(plan.nextSync(now: start + .seconds(9)) == nil, "the sync covered every write")
    }

    @Test func aRemoteChangeOrARequestRunsAtOnce() {
        var plan = AutomaticSyncPlan(configuration: configuration)
        plan.remoteChange()
        #expect(plan.nextSync(now: start) == start)
        plan.syncStarted()
        plan.ask()
        #expect(plan.nextSync(now: start) == start)
    }

    @Test func failuresBackOffWithJitterAndCaps() {
        var plan = AutomaticSyncPlan(configuration: configuration)
        let cases: [(offline: Bool, failures: Int, random: Double, pause: Duration)] = [
            (false, 1, 0.5, .seconds(1)),
            (false, 2, 0.5, .seconds(2)),
            (false, 3, 0.5, .seconds(4)),
            (false, 7, 0.5, .seconds(60)),
            (false, 20, 0.5, .seconds(60)),
            (true, 20, 0.5, .seconds(10)),
            (false, 1, 0, .milliseconds(800)),
            (false, 1, 1, .milliseconds(1200)),
            (true, 20, 1, .seconds(12)),
        ]
        for entry in cases {
            plan = AutomaticSyncPlan(configuration: configuration)
            for _ in 0..<entry.failures { plan.syncFailed(offline: entry.offline, at: start, random: entry.random) }
            #expect(plan.retryAt == start + entry.pause, "\(entry)")
        }
    }

    @Test func aFailureIsRetriedAndRespectsItsBackoffExceptWhenAsked() {
        var plan = AutomaticSyncPlan(configuration: configuration)
        plan.syncStarted()
        plan.syncFailed(offline: true, at: start, random: 0.5)
        #expect(plan.nextSync(now: start) == start + .seconds(1), "retried by itself")
        plan.remoteChange()
        plan.localWrite(at: start)
        #expect(plan.nextSync(now: start) == start + .seconds(1), "new work waits for the retry time")
        plan.ask()
        #expect(plan.nextSync(now: start) == start, "a request does not")
        plan.syncStarted()
        plan.syncSucceeded(foundChanges: true, at: start, random: 0.5)
        #expect(plan.nextSync(now: start) == nil)
        #expect(plan.failures == 0)
    }

    @Test func aFailureOnlyTheAppCanSettleWaitsForARequest() {
        var plan = AutomaticSyncPlan(configuration: configuration)
        plan.syncStarted()
        plan.syncNeedsApp()
        #expect(plan.nextSync(now: start) == nil, "no retry")
        plan.localWrite(at: start)
        plan.remoteChange()
        #expect(plan.nextSync(now: start + .seconds(10)) == nil, "new work waits too")
        plan.ask()
        #expect(plan.nextSync(now: start) == start, "until the app asks (or takes a way out)")
    }

    @Test func wakesThatFindNothingCostTheNextAGrowingPause() {
        var plan = AutomaticSyncPlan(configuration: configuration)
        var now = start
        // (the pause before the wake after this empty one, with no jitter)
        let seconds: [Int64] = [0, 0, 1, 2, 4, 8, 16, 32, 60, 60]
        let expected = seconds.map { Duration.seconds($0) }
        for pause in expected {
            plan.remoteChange()
            let due = plan.nextSync(now: now)
            #expect(due == now + pause)
            now = due ?? now
            plan.syncStarted()
            plan.syncSucceeded(foundChanges: false, at: now, random: 0.5)
        }
        // A wake that finds something ends the pauses.
        plan.remoteChange()
        let due = plan.nextSync(now: now)
        now = due ?? now
        plan.syncStarted()
        plan.syncSucceeded(foundChanges: true, at: now, random: 0.5)
        plan.remoteChange()
        #expect(plan.nextSync(now: now) == now)
        #expect(plan.emptyWakes == 0)
    }

    @Test func localWritesAndRequestsDoNotWaitForAQuietPause() {
        var plan = AutomaticSyncPlan(configuration: configuration)
        for _ in 0..<5 {
            plan.remoteChange()
            plan.syncStarted()
            plan.syncSucceeded(foundChanges: false, at: start, random: 0.5)
        }
        #expect(plan.quietUntil == start + .seconds(8))
        plan.localWrite(at: start)
        #expect(plan.nextSync(now: start) == start + .milliseconds(500), "a write waits for its debounce only")
        plan.syncStarted()
        #expect(!plan.runsForWake, "a sync for a write is not a wake")
        plan.ask()
        #expect(plan.nextSync(now: start) == start)
    }
}
