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
        plan.syncSucceeded()
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
}
