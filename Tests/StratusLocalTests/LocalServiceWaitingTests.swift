import Foundation
import InMemoryLogging
import Logging
import Stratus
import StratusTestSupport
import Testing

@testable import StratusLocal

/// `waitForChanges` on the local backend: woken by journal writes of other instances (through
/// inotify, or by polling when notifications are unavailable), and failing the way
/// `changes(since:)` fails. Timings are generous: only the timeout test asserts a duration.
@Suite struct LocalServiceWaitingTests {
    /// A wait long enough never to end by itself in these tests.
    static let long = Duration.seconds(120)

    /// Starts a wait, lets it settle into waiting, and returns its task.
    static func startWaiting(
        on service: LocalService, after token: ChangeToken, timeout: Duration = long
    ) async throws -> Task<ChangeWaitOutcome, any Error> {
        let task = Task { try await service.waitForChanges(after: token, timeout: timeout) }
        // Not an assertion: a head start so the change below lands while the wait is blocked.
        try await Task.sleep(for: .milliseconds(300))
        return task
    }

    @Test func theCapabilitiesDeclareNotificationWithAFallbackSchedule() throws {
        let folder = try TemporaryFolder(prefix: "stratus-local-tests")
        defer { folder.remove() }
        let waiting = try folder.service().capabilities.changeWaiting
        #expect(waiting.mechanism == .notification)
        #expect(waiting.wakeBound == .seconds(1))
        #expect(waiting.polling == LocalService.fallbackPollingSchedule)
        #expect(waiting.polling.longestInterval < waiting.wakeBound)
    }

    @Test func aWriteByAnotherInstanceOnTheSameRootWakesAWaiter() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-local-tests")
        defer { folder.remove() }
        let waiter = try folder.service()
        let writer = try folder.service()
        let token = try await waiter.latestChangeToken()
        let started = ContinuousClock.now
        let wait = try await Self.startWaiting(on: waiter, after: token)
        _ = try await writer.upload(from: .bytes(Data("new".utf8)), to: try RemotePath("saves/slot.json"))
        #expect(try await wait.value == .changesAvailable)
        #expect(ContinuousClock.now - started < Self.long / 2, "the wait ended by its timeout, not by the write")
        let page = try await waiter.changes(since: token)
        #expect(page.changes.map(\.path.string) == ["saves/slot.json"])
    }

    @Test func waitersOfTwoInstancesShareOneWatchAndRemoveItWhenDone() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-local-tests")
        defer { folder.remove() }
        let watcher = JournalWatcher()
        let first = try Self.service(folder, watcher: watcher)
        let second = try Self.service(folder, watcher: watcher)
        let token = try await first.latestChangeToken()
        let waits = [
            try await Self.startWaiting(on: first, after: token),
            try await Self.startWaiting(on: second, after: token),
        ]
        try await Self.waitUntil { watcher.watchCount == 1 }
        #expect(watcher.watchCount == 1)
        _ = try await first.upload(from: .bytes(Data("x".utf8)), to: try RemotePath("x.txt"))
        for wait in waits {
            #expect(try await wait.value == .changesAvailable)
        }
        #expect(watcher.watchCount == 0)
    }

    @Test func aChangeAlreadyThereIsReportedAtOnce() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-local-tests")
        defer { folder.remove() }
        let service = try folder.service()
        let token = try await service.latestChangeToken()
        _ = try await service.upload(from: .bytes(Data("a".utf8)), to: try RemotePath("a.txt"))
        #expect(try await service.waitForChanges(after: token, timeout: Self.long) == .changesAvailable)
    }

    @Test func withNoChangeTheWaitTimesOut() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-local-tests")
        defer { folder.remove() }
        let service = try folder.service()
        _ = try await service.upload(from: .bytes(Data("before".utf8)), to: try RemotePath("before.txt"))
        let token = try await service.latestChangeToken()
        let started = ContinuousClock.now
        #expect(try await service.waitForChanges(after: token, timeout: .milliseconds(400)) == .timedOut)
        // A test of a timeout: it must not end early; late only by a loaded machine's margin.
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .milliseconds(400))
        #expect(elapsed < .seconds(30))
    }

    @Test func cancellingTheTaskEndsTheWaitWithCancelled() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-local-tests")
        defer { folder.remove() }
        let service = try folder.service()
        let token = try await service.latestChangeToken()
        let wait = try await Self.startWaiting(on: service, after: token)
        let cancelled = ContinuousClock.now
        wait.cancel()
        await expectServiceError(.cancelled) { try await wait.value }
        // Ended by the cancellation, not by the hour-long wait (a busy machine's margin apart).
        #expect(ContinuousClock.now - cancelled < .seconds(60))
    }

    @Test func aWaitInACancelledTaskThrowsCancelled() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-local-tests")
        defer { folder.remove() }
        let service = try folder.service()
        let token = try await service.latestChangeToken()
        let wait = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await service.waitForChanges(after: token, timeout: Self.long)
        }
        await expectServiceError(.cancelled) { try await wait.value }
    }

    @Test func tokensThatChangesRefusesAreRefusedTheSameWay() async throws {
        let one = try TemporaryFolder(prefix: "stratus-local-tests")
        let other = try TemporaryFolder(prefix: "stratus-local-tests")
        defer {
            one.remove()
            other.remove()
        }
        let service = try one.service()
        let foreign = try await other.service().latestChangeToken()
        for token in [ChangeToken(rawValue: "not a token"), ChangeToken(rawValue: ""), foreign] {
            await expectServiceError(.invalidChangeToken) { try await service.changes(since: token) }
            await expectServiceError(.invalidChangeToken) {
                try await service.waitForChanges(after: token, timeout: .seconds(5))
            }
        }
    }

    @Test func aJournalReplacedDuringTheWaitMakesTheTokenInvalid() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-local-tests")
        let elsewhere = try TemporaryFolder(prefix: "stratus-local-tests")
        defer {
            folder.remove()
            elsewhere.remove()
        }
        let watcher = JournalWatcher()
        let service = try Self.service(folder, watcher: watcher)
        let token = try await service.latestChangeToken()
        let wait = try await Self.startWaiting(on: service, after: token)
        try await Self.waitUntil { watcher.watchCount == 1 }
        // Another journal (of another store) is renamed over this one, as a new journal is put
        // in place: the journal is always there, first the old one, then the new.
        _ = try elsewhere.service()
        let journal = ".stratus/" + StoreLayout.journalFileName
        #expect(rename(elsewhere.root.appending(path: journal).path, folder.root.appending(path: journal).path) == 0)
        await expectServiceError(.invalidChangeToken) { try await wait.value }
    }

    @Test func withoutNotificationsTheWaitPollsAndSaysSo() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-local-tests")
        defer { folder.remove() }
        let log = InMemoryLogHandler()
        let waiter = try Self.service(
            folder, watcher: JournalWatcher(isEnabled: false), logger: Logger(label: "test") { _ in log })
        let writer = try folder.service()
        let token = try await waiter.latestChangeToken()
        let wait = try await Self.startWaiting(on: waiter, after: token)
        _ = try await writer.upload(from: .bytes(Data("polled".utf8)), to: try RemotePath("polled.txt"))
        #expect(try await wait.value == .changesAvailable)
        #expect(log.entries.contains { $0.level == .warning && "\($0.message)".contains("polling") })

        let quiet = try await waiter.latestChangeToken()
        #expect(try await waiter.waitForChanges(after: quiet, timeout: .milliseconds(300)) == .timedOut)
        #expect(log.entries.filter { $0.level == .warning }.count == 1, "the fallback is a warning once")
    }

    /// Waits until a condition holds, checking every 20 ms for up to 10 seconds (it then fails
    /// at the expectation that follows).
    static func waitUntil(_ condition: () -> Bool) async throws {
        let giveUp = ContinuousClock.now + .seconds(10)
        while !condition(), ContinuousClock.now < giveUp {
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// A service on a folder's root with a watcher of the test's own.
    static func service(_ folder: TemporaryFolder, watcher: JournalWatcher, logger: Logger? = nil) throws
        -> LocalService
    {
        try LocalService(
            root: folder.root, maximumVersions: 100, chunkSize: LocalService.defaultChunkSize, changePageSize: 500,
            logger: logger ?? Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }), watcher: watcher)
    }
}
