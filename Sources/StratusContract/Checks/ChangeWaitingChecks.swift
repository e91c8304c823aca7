import Foundation
import Stratus

extension ContractSuite {
    /// Waiting for changes: another client's change wakes a waiter within the bound the service
    /// declares, cancelling a wait ends it promptly, a refused token is refused the way
    /// ``/Stratus/Service/changes(since:)`` refuses it, and a quiet wait times out.
    ///
    /// The bound is ``/Stratus/ChangeWaiting/wakeBound`` from
    /// ``/Stratus/ServiceCapabilities/changeWaiting`` plus ``wakeAllowance`` for a loaded
    /// machine. Services without a change feed, or declaring
    /// ``/Stratus/ChangeWaiting/Mechanism/unavailable``, skip these checks.
    static var changeWaitingChecks: [ContractCheck.Definition] {
        [wakesOnAnotherClientsChange, cancellationEndsTheWait, refusedTokens, quietWaitTimesOut]
    }

    /// What the wake check allows on top of the declared bound, for a machine busy with other
    /// work (tests run in parallel).
    static let wakeAllowance = Duration.seconds(10)
    /// How soon a cancelled wait must end.
    static let cancellationLimit = Duration.seconds(10)

    private static let wakesOnAnotherClientsChange = ContractCheck.Definition(
        "waiting for changes: another client's change wakes a waiter within the declared bound"
    ) { run in
        let waiting = try run.requireChangeWaiting()
        let limit = waiting.wakeBound + wakeAllowance
        let timeout = limit + .seconds(20)
        let path = try run.path("waiting/from-another-client.txt")
        let token = try await run.latestChangeToken()
        let other: any Service
        do {
            other = try await run.reopen()
        } catch {
            throw failure("the factory could not make a second service for the same context: \(error)")
        }

        let service = run.service
        let waiter = Task { try await service.waitForChanges(after: token, timeout: timeout) }
        // A head start, not a measurement: the change should land while the waiter waits.
        try? await Task.sleep(for: .seconds(1))
        do {
            _ = try await other.upload(from: .bytes(Data("written elsewhere".utf8)), to: path, options: UploadOptions())
        } catch {
            waiter.cancel()
            throw failure("the second client's upload to \(path) threw \(error)")
        }
        let committed = ContinuousClock.now
        let what = "waitForChanges(after:timeout: \(timeout)) while another client wrote \(path)"
        guard let result = await result(of: waiter, within: timeout + wakeAllowance) else {
            waiter.cancel()
            throw failure("\(what) had not returned \(timeout + wakeAllowance) after the write")
        }
        let latency = ContinuousClock.now - committed
        switch result {
        case .failure(let error):
            throw failure("\(what) threw \(error)")
        case .success(.timedOut):
            throw failure(
                "\(what) returned .timedOut \(latency) after the write; the change should have woken it within capabilities.changeWaiting.wakeBound (\(waiting.wakeBound))"
            )
        case .success(.changesAvailable):
            break
        }
        try expect(
            latency <= limit,
            "\(what) woke \(latency) after the write; capabilities.changeWaiting declares .\(waiting.mechanism) with a wakeBound of \(waiting.wakeBound) (the check allows \(wakeAllowance) more for a loaded machine)"
        )
        let (changes, _, _) = try await run.allChanges(since: token)
        try expect(
            changes.contains { $0.path == path },
            "after the waiter woke, the change feed since its token does not report \(path); it reported \(changes.count) changes on other paths"
        )
    }

    private static let cancellationEndsTheWait = ContractCheck.Definition(
        "waiting for changes: cancelling the task ends the wait promptly with cancelled"
    ) { run in
        try run.requireChangeWaiting()
        let token = try await run.latestChangeToken()
        let service = run.service
        let timeout = Duration.seconds(120)
        let what = "waitForChanges(after:timeout: \(timeout))"

        let waiter = Task { try await service.waitForChanges(after: token, timeout: timeout) }
        // A head start, so the cancellation reaches a wait that is waiting.
        try? await Task.sleep(for: .seconds(1))
        waiter.cancel()
        try await expectCancelled(waiter, "\(what), its task cancelled while it waited")

        let cancelledFirst = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await service.waitForChanges(after: token, timeout: timeout)
        }
        try await expectCancelled(cancelledFirst, "\(what) started in a task already cancelled")
    }

    /// Fails unless a cancelled wait ends within ``cancellationLimit`` with `cancelled`.
    private static func expectCancelled(_ waiter: Task<ChangeWaitOutcome, any Error>, _ what: String) async throws {
        guard let result = await result(of: waiter, within: cancellationLimit) else {
            throw failure("\(what) had not ended \(cancellationLimit) later; a cancelled wait must end promptly")
        }
        switch result {
        case .success(let outcome):
            throw failure("\(what) returned .\(outcome); it should throw ServiceError(.cancelled)")
        case .failure(let error as ServiceError) where error.code == .cancelled:
            return
        case .failure(let error):
            throw failure("\(what) threw \(error); it should throw ServiceError(.cancelled)")
        }
    }

    private static let refusedTokens = ContractCheck.Definition(
        "waiting for changes: a token changes(since:) refuses is refused with the same code"
    ) { run in
        try run.requireChangeWaiting()
        let service = run.service
        for raw in ["not a change token", "", "\u{1F4A9}\u{0}\u{FFFF}"] {
            let token = ChangeToken(rawValue: raw)
            let expected: ServiceError.Code
            do {
                _ = try await service.changes(since: token)
                continue  // Accepted: the feed's own check reports that.
            } catch let error as ServiceError {
                expected = error.code
            } catch {
                throw failure("changes(since: \(raw.debugDescription)) threw a \(type(of: error)): \(error)")
            }
            let what = "waitForChanges(after: \(raw.debugDescription), timeout: 5 s)"
            let waiter = Task { try await service.waitForChanges(after: token, timeout: .seconds(5)) }
            guard let result = await result(of: waiter, within: .seconds(5) + wakeAllowance) else {
                waiter.cancel()
                throw failure("\(what) had not ended after \(Duration.seconds(5) + wakeAllowance)")
            }
            switch result {
            case .success(let outcome):
                throw failure(
                    "\(what) returned .\(outcome); changes(since:) throws \(expected) for this token, and so must the wait"
                )
            case .failure(let error as ServiceError):
                try expect(
                    error.code == expected,
                    "\(what) threw \(error.code); changes(since:) throws \(expected) for this token, and so must the wait (\(error))"
                )
            case .failure(let error):
                throw failure("\(what) threw a \(type(of: error)): \(error); expected ServiceError(\(expected))")
            }
        }
    }

    private static let quietWaitTimesOut = ContractCheck.Definition(
        "waiting for changes: with no change, a short wait times out"
    ) { run in
        let waiting = try run.requireChangeWaiting()
        _ = try await run.upload(.bytes(Data("before".utf8)), to: try run.path("quiet/before.txt"))
        let token = try await run.latestChangeToken()
        let service = run.service
        let timeout = Duration.seconds(2)
        let latest = timeout + waiting.wakeBound + wakeAllowance
        let what = "waitForChanges(after:timeout: \(timeout)) with nothing changing"

        let started = ContinuousClock.now
        let waiter = Task { try await service.waitForChanges(after: token, timeout: timeout) }
        guard let result = await result(of: waiter, within: latest) else {
            waiter.cancel()
            throw failure("\(what) had not returned \(latest) later")
        }
        let elapsed = ContinuousClock.now - started
        switch result {
        case .failure(let error):
            throw failure("\(what) threw \(error)")
        case .success(.changesAvailable):
            let (changes, _, _) = try await run.allChanges(since: token)
            throw failure(
                "\(what) returned .changesAvailable; the feed since the token reports \(changes.count) changes")
        case .success(.timedOut):
            break
        }
        // A test of a timeout: it may end a little late, not early.
        try expect(
            elapsed >= timeout - .milliseconds(100), "\(what) returned .timedOut after \(elapsed), before its timeout")
    }
}
