import Foundation
import MockDropbox
import MockProviders
import MockSupport
import Stratus
import StratusDropbox
import StratusTestSupport
import Testing

/// `waitForChanges` over `files/list_folder/longpoll` against the mock: woken by another
/// client's change, sent without credentials, stopped at the caller's deadline, honouring the
/// server's `backoff` across calls, and refusing tokens as `changes(since:)` does. Durations
/// are asserted only where a timeout or a backoff is what is tested, with generous margins.
@Suite struct LongpollTests {
    static let route = "/2/files/list_folder/longpoll"

    /// Runs `body` against a fresh mock with the given options.
    static func withMock(
        _ options: MockDropboxServer.Options = MockFixture.options, _ body: @Sendable (MockFixture) async throws -> Void
    ) async throws {
        try await DropboxMockProvider(options: options).withRunning { mock in try await body(MockFixture(mock: mock)) }
    }

    /// The long polls the mock has answered.
    static func longpolls(_ fixture: MockFixture) -> [RecordedRequest] {
        fixture.server.requestLog.entries(path: route)
    }

    /// Waits (up to a generous limit) until the mock has answered `count` long polls: an
    /// answer is logged when the mock sends it, which may be after the client stopped waiting.
    static func waitForLoggedLongpolls(_ fixture: MockFixture, count: Int) async throws -> [RecordedRequest] {
        let clock = ContinuousClock()
        let giveUp = clock.now + .seconds(30)
        while longpolls(fixture).count < count, clock.now < giveUp {
            try await Task.sleep(for: .milliseconds(50))
        }
        return longpolls(fixture)
    }

    /// The `timeout` argument of a logged long poll.
    static func timeoutArgument(_ request: RecordedRequest) throws -> Int? {
        guard let text = request.arguments else { return nil }
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        return object?["timeout"] as? Int
    }

    @Test func theCapabilitiesDeclareALongPoll() async throws {
        try await Self.withMock { fixture in
            let waiting = try fixture.makeService().capabilities.changeWaiting
            #expect(waiting.mechanism == .longPoll)
            #expect(waiting.wakeBound == .seconds(5))
        }
    }

    @Test func anotherClientsChangeWakesTheWaiterThroughALongPollWithoutCredentials() async throws {
        try await Self.withMock { fixture in
            let waiter = try fixture.makeService(root: "/saves")
            let writer = try fixture.makeService(root: "/saves")
            _ = try await writer.upload(from: .bytes(Data("0".utf8)), to: try RemotePath("first.txt"))
            let token = try await waiter.latestChangeToken()
            let started = ContinuousClock.now
            let wait = Task { try await waiter.waitForChanges(after: token, timeout: .seconds(120)) }
            try await Task.sleep(for: .milliseconds(300))  // not asserted: a head start
            _ = try await writer.upload(from: .bytes(Data("1".utf8)), to: try RemotePath("second.txt"))
            #expect(try await wait.value == .changesAvailable)
            #expect(ContinuousClock.now - started < .seconds(60), "the wait ended by its timeout, not the change")
            let page = try await waiter.changes(since: token)
            #expect(page.changes.map(\.path.string) == ["second.txt"])

            let polls = try await Self.waitForLoggedLongpolls(fixture, count: 1)
            #expect(!polls.isEmpty)
            for poll in polls {
                #expect(poll.header("Authorization") == nil, "a long poll carried credentials: \(poll)")
                // The time left of the 120 s wait, rounded up, within Dropbox's 30 to 480.
                #expect(try Self.timeoutArgument(poll).map { (30...120).contains($0) } == true)
            }
            // The other routes do carry them, so the log would show one.
            let continued = fixture.server.requestLog.entries(path: "/2/files/list_folder/continue")
            #expect(continued.allSatisfy { $0.header("Authorization") != nil } && !continued.isEmpty)
        }
    }

    @Test func aTimeoutUnderThirtySecondsAsksForThirtyAndStopsAtTheCallersDeadline() async throws {
        try await Self.withMock(.init(maxLongpollWait: .seconds(30))) { fixture in
            let service = try fixture.makeService()
            let token = try await service.latestChangeToken()
            let started = ContinuousClock.now
            #expect(try await service.waitForChanges(after: token, timeout: .seconds(1)) == .timedOut)
            // A test of a timeout: not before it, and well before the 30 s the mock holds (a
            // loaded machine's margin apart).
            let elapsed = ContinuousClock.now - started
            #expect(elapsed >= .seconds(1))
            #expect(elapsed < .seconds(20))
            let polls = try await Self.waitForLoggedLongpolls(fixture, count: 1)
            #expect(polls.count == 1)
            #expect(try polls.first.map(Self.timeoutArgument) == 30)
        }
    }

    @Test func aLongerTimeoutIsCappedAtDropboxsLongest() async throws {
        try await Self.withMock(.init(maxLongpollWait: .milliseconds(200))) { fixture in
            let service = try fixture.makeService()
            let token = try await service.latestChangeToken()
            let wait = Task { try await service.waitForChanges(after: token, timeout: .seconds(3600)) }
            let polls = try await Self.waitForLoggedLongpolls(fixture, count: 1)
            wait.cancel()
            await expectServiceError(.cancelled) { try await wait.value }
            #expect(try polls.first.map(Self.timeoutArgument) == 480)
        }
    }

    @Test func aBackoffIsWaitedOutByTheNextLongPollOfTheSameInstanceEvenInALaterCall() async throws {
        try await Self.withMock(.init(maxLongpollWait: .milliseconds(200), longpollBackoff: 3600)) { fixture in
            let service = try fixture.makeService()
            let token = try await service.latestChangeToken()
            _ = try await service.upload(from: .bytes(Data("x".utf8)), to: try RemotePath("x.txt"))
            // The first long poll finds the change, and its answer asks for an hour's backoff.
            #expect(try await service.waitForChanges(after: token, timeout: .seconds(60)) == .changesAvailable)
            #expect(Self.longpolls(fixture).count == 1)
            // The next call of the same instance waits the backoff out instead of asking, even
            // though the change is still there to report.
            #expect(try await service.waitForChanges(after: token, timeout: .seconds(1)) == .timedOut)
            try await Task.sleep(for: .milliseconds(300))
            #expect(Self.longpolls(fixture).count == 1)

            // The backoff belongs to the instance that was given it.
            let other = try fixture.makeService()
            #expect(try await other.waitForChanges(after: token, timeout: .seconds(60)) == .changesAvailable)
            #expect(Self.longpolls(fixture).count == 2)
        }
    }

    @Test func afterTheBackoffTheLongPollsGoOnAtItsPace() async throws {
        try await Self.withMock(.init(maxLongpollWait: .milliseconds(100), longpollBackoff: 1)) { fixture in
            let service = try fixture.makeService()
            let token = try await service.latestChangeToken()
            let window = Duration.seconds(10)
            #expect(try await service.waitForChanges(after: token, timeout: window) == .timedOut)
            // One long poll per backoff at most (a busy machine sends fewer); without the backoff
            // it would be one per 100 ms hold.
            let count = Self.longpolls(fixture).count
            #expect(count >= 2, "the long polls stopped after the first backoff")
            #expect(count <= 11, "\(count) long polls in \(window) with a 1 s backoff")
        }
    }

    @Test func cancellingTheWaitEndsItWithCancelled() async throws {
        try await Self.withMock { fixture in
            let service = try fixture.makeService()
            let token = try await service.latestChangeToken()
            let wait = Task { try await service.waitForChanges(after: token, timeout: .seconds(120)) }
            try await Task.sleep(for: .milliseconds(300))  // not asserted: a head start
            let cancelled = ContinuousClock.now
            wait.cancel()
            await expectServiceError(.cancelled) { try await wait.value }
            // Ended by the cancellation, not by the hour-long wait (a busy machine's margin apart).
            #expect(ContinuousClock.now - cancelled < .seconds(60))
        }
    }

    @Test func tokensAreRefusedAsChangesRefusesThem() async throws {
        try await Self.withMock { fixture in
            let service = try fixture.makeService()
            let good = try await service.latestChangeToken()
            let refused = [
                ChangeToken(rawValue: "not a token"),
                // Well formed, but a cursor Dropbox never issued: a 400 about the cursor.
                ChangeToken(rawValue: "v1::AAHnot-a-cursor"),
            ]
            for token in refused {
                await expectServiceError(.invalidChangeToken) { try await service.changes(since: token) }
                await expectServiceError(.invalidChangeToken) {
                    try await service.waitForChanges(after: token, timeout: .seconds(5))
                }
            }
            // A cursor Dropbox reset.
            fixture.server.invalidateCursors()
            await expectServiceError(.invalidChangeToken) { try await service.changes(since: good) }
            await expectServiceError(.invalidChangeToken) {
                try await service.waitForChanges(after: good, timeout: .seconds(5))
            }
        }
    }
}
