import Foundation
import Stratus
import StratusTestSupport
import Synchronization
import Testing

/// A service whose change feed follows a script: each call to `changes(since:)` takes the next
/// page (the last one repeats), and the tokens it was asked with are kept.
final class ScriptedFeed: Service {
    private let pages: [Result<ChangePage, ServiceError>]
    private let asked = Mutex<[ChangeToken]>([])
    let capabilities: ServiceCapabilities

    init(
        _ pages: [Result<ChangePage, ServiceError>], schedule: PollingSchedule = PollingSchedule(),
        feed: ServiceCapabilities.ChangeFeed = .native
    ) {
        self.pages = pages
        self.capabilities = ServiceCapabilities(
            hashAlgorithm: .sha256, largestSingleUpload: 1, chunkSize: 1, conditionalWrites: .atomic,
            supportsVersions: false, changeFeed: feed, supportsCustomMetadata: false,
            pathRules: PathRules(isCaseSensitive: true),
            changeWaiting: feed == .unavailable ? .unavailable : .polling(schedule))
    }

    /// The tokens `changes(since:)` was called with, in order.
    var tokens: [ChangeToken] { asked.withLock { $0 } }

    static func page(_ next: String, changes: [Change] = [], hasMore: Bool = false) -> Result<ChangePage, ServiceError>
    {
        .success(ChangePage(changes: changes, nextToken: ChangeToken(rawValue: next), hasMore: hasMore))
    }

    func changes(since token: ChangeToken) async throws -> ChangePage {
        let index = asked.withLock { asked in
            asked.append(token)
            return min(asked.count, pages.count) - 1
        }
        return try pages[index].get()
    }

    private var refusal: ServiceError { ServiceError(.unsupported, "Only the feed is scripted.") }
    func metadata(of path: RemotePath) async throws -> RemoteFile { throw refusal }
    func list(_ folder: RemotePath) async throws -> [RemoteFile] { throw refusal }
    func upload(from source: UploadSource, to path: RemotePath, options: UploadOptions) async throws -> RemoteFile {
        throw refusal
    }
    func download(_ path: RemotePath, version: VersionID?, to destination: URL, options: DownloadOptions) async throws
        -> RemoteFile
    { throw refusal }
    func delete(_ path: RemotePath, precondition: WritePrecondition) async throws { throw refusal }
    func latestChangeToken() async throws -> ChangeToken { ChangeToken(rawValue: "start") }
    func versions(of path: RemotePath) async throws -> [FileVersion] { throw refusal }
    func restore(_ path: RemotePath, to version: VersionID) async throws -> RemoteFile { throw refusal }
}

/// The default `waitForChanges`: polling `changes(since:)` on the declared schedule.
@Suite("the default poller")
struct ChangePollerTests {
    static let quick = PollingSchedule(minimum: .milliseconds(20), maximum: .milliseconds(50))
    static let start = ChangeToken(rawValue: "start")

    @Test func aQuietFeedTimesOutAfterPollingOnItsSchedule() async throws {
        let feed = ScriptedFeed([ScriptedFeed.page("start")], schedule: Self.quick)
        let started = ContinuousClock.now
        #expect(try await feed.waitForChanges(after: Self.start, timeout: .milliseconds(400)) == .timedOut)
        // A test of a timeout: not before it, and late only by a loaded machine's margin.
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .milliseconds(400))
        #expect(elapsed < .seconds(30))
        // At once, then at least once more before giving up (at most every 20 ms).
        #expect(feed.tokens.count >= 2)
        #expect(feed.tokens.count <= 400 / 20 + 2)
    }

    @Test func aChangeEndsTheWait() async throws {
        let change = Change.deleted(try RemotePath("gone.txt"))
        let feed = ScriptedFeed(
            [ScriptedFeed.page("start"), ScriptedFeed.page("start"), ScriptedFeed.page("next", changes: [change])],
            schedule: Self.quick)
        #expect(try await feed.waitForChanges(after: Self.start, timeout: .seconds(60)) == .changesAvailable)
        #expect(feed.tokens.count == 3)
    }

    @Test func pagesWithMoreAreFollowedWithoutWaiting() async throws {
        let change = Change.deleted(try RemotePath("late.txt"))
        // Empty pages that say there is more (a feed that skips entries it does not report):
        // each next token is asked at once, and a slow schedule never comes into play.
        let feed = ScriptedFeed(
            [
                ScriptedFeed.page("p1", hasMore: true), ScriptedFeed.page("p2", hasMore: true),
                ScriptedFeed.page("p3", changes: [change]),
            ],
            schedule: PollingSchedule(minimum: .seconds(3600), maximum: .seconds(3600)))
        #expect(try await feed.waitForChanges(after: Self.start, timeout: .seconds(60)) == .changesAvailable)
        #expect(feed.tokens.map(\.rawValue) == ["start", "p1", "p2"])
    }

    @Test func laterPollsStartFromTheLastPagesToken() async throws {
        let change = Change.deleted(try RemotePath("third.txt"))
        let feed = ScriptedFeed(
            [ScriptedFeed.page("t1"), ScriptedFeed.page("t2"), ScriptedFeed.page("t3", changes: [change])],
            schedule: PollingSchedule(minimum: .seconds(3600)))
        let outcome = try await feed.pollForChanges(after: Self.start, timeout: .seconds(60), schedule: Self.quick)
        #expect(outcome == .changesAvailable)
        #expect(feed.tokens.map(\.rawValue) == ["start", "t1", "t2"])
    }

    @Test func cancellingEndsTheWaitWithCancelled() async throws {
        let feed = ScriptedFeed(
            [ScriptedFeed.page("start")], schedule: PollingSchedule(minimum: .seconds(3600), maximum: .seconds(3600)))
        let wait = Task { try await feed.waitForChanges(after: Self.start, timeout: .seconds(7200)) }
        try await Task.sleep(for: .milliseconds(200))  // not asserted: a head start
        let cancelled = ContinuousClock.now
        wait.cancel()
        await expectServiceError(.cancelled) { try await wait.value }
        // Ended by the cancellation, not by the hour-long wait (a busy machine's margin apart).
        #expect(ContinuousClock.now - cancelled < .seconds(60))
    }

    @Test func aRefusedTokenIsRefusedAsTheFeedRefusesIt() async {
        let feed = ScriptedFeed([.failure(ServiceError(.invalidChangeToken, "Unknown token."))], schedule: Self.quick)
        await expectServiceError(.invalidChangeToken) {
            try await feed.waitForChanges(after: Self.start, timeout: .seconds(5))
        }
    }

    @Test func anEnormousTimeoutIsCutToACentury() async throws {
        let change = Change.deleted(try RemotePath("soon.txt"))
        let feed = ScriptedFeed(
            [ScriptedFeed.page("start"), ScriptedFeed.page("next", changes: [change])], schedule: Self.quick)
        // Far beyond what a clock instant can hold once added to now, were it not cut.
        let enormous = Duration(secondsComponent: .max, attosecondsComponent: 0) * 18
        #expect(try await feed.waitForChanges(after: Self.start, timeout: enormous) == .changesAvailable)
        #expect(ChangeWaiting.longestTimeout == .seconds(3_153_600_000))
    }

    @Test func withoutAFeedWaitingIsUnsupported() async {
        let feed = ScriptedFeed([ScriptedFeed.page("start")], feed: .unavailable)
        await expectServiceError(.unsupported) {
            try await feed.waitForChanges(after: Self.start, timeout: .seconds(5))
        }
        #expect(feed.tokens.isEmpty)
    }
}
