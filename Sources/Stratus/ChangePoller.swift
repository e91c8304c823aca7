/// Waits for changes by asking ``Service/changes(since:)`` on a ``PollingSchedule``: the
/// default ``Service/waitForChanges(after:timeout:)``.
struct ChangePoller: Sendable {
    let schedule: PollingSchedule

    func wait(on service: some Service, after token: ChangeToken, timeout: Duration) async throws
        -> ChangeWaitOutcome
    {
        guard service.capabilities.changeFeed != .unavailable else {
            throw ServiceError(.unsupported, "This service has no change feed to wait on.")
        }
        let clock = ContinuousClock()
        let deadline = clock.now + min(max(.zero, timeout), ChangeWaiting.longestTimeout)
        var position = token
        var quietPolls = 0
        while true {
            if Task.isCancelled { throw ServiceError(.cancelled, "Waiting for changes was cancelled.") }
            let page = try await service.changes(since: position)
            if !page.changes.isEmpty { return .changesAvailable }
            position = page.nextToken
            if page.hasMore { continue }
            let remaining = deadline - clock.now
            if remaining <= .zero { return .timedOut }
            let pause = min(schedule.interval(afterQuietPolls: quietPolls, random: Double.random(in: 0...1)), remaining)
            quietPolls += 1
            do {
                try await Task.sleep(for: pause)
            } catch {
                throw ServiceError(.cancelled, "Waiting for changes was cancelled.")
            }
        }
    }
}
