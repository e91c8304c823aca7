import Foundation
import Stratus
import StratusContract
import StratusLocal
import Testing

/// The contract suite against a local service that breaks one promise on purpose: each false
/// claim must fail exactly the checks that look at that promise (the families of checks about
/// it are run; the wrapper passes everything else through unchanged), and the same service
/// without the lie must pass every check. The racing test uses the suite's default race sizes,
/// so it proves that the defaults catch a check-then-write window.
@Suite struct FalseClaimTests {
    static let racingCreates = "preconditions: racing mustNotExist writes, exactly one wins"
    static let racingReplacements = "preconditions: racing mustMatch writes of one version, exactly one wins"
    static let longestName = "names: a name of the longest allowed length keeps its content and metadata"
    static let cancelledUpload = "cancellation: an upload cancelled midway leaves nothing partial"
    static let cancelledDownload = "cancellation: a download cancelled midway leaves the destination as it was"
    static let everyChange = "change feed: an upload and a delete are reported in order"
    static let createdAndDeleted =
        "change feed: a file created and deleted between two polls, as the feed's kind promises"
    static let aboveSingleUpload = "round trip: largestSingleUpload+1 bytes"
    static let reRead = "change feed: re-reading a token gives the same changes, deletions included"
    static let reReadByANewInstance =
        "change feed: re-reading a token in a new instance (killed before saving) gives the same changes"
    static let wakesWithinBound =
        "waiting for changes: another client's change wakes a waiter within the declared bound"
    static let cancelledWait = "waiting for changes: cancelling the task ends the wait promptly with cancelled"
    /// The checks whose sizes follow the upload limits.
    static let sized = ["round trip:", "cancellation:", "progress:", "concurrency:", "preconditions: racing"]
    static let chunkBoundaries = [
        "round trip: chunkSize-1 bytes", "round trip: chunkSize bytes", "round trip: 2×chunkSize+1 bytes",
    ]

    /// What running every check against one service gave.
    struct Report {
        var ran: Set<String> = []
        var failures: [String: String] = [:]
        var skips: [String: String] = [:]
    }

    /// Options that keep the runs short: small cancellations and races (the racing test
    /// overrides them with the suite's defaults).
    static let quick = ContractSuite.Options(
        cancellationContentSize: 4 * 1_048_576, racingContentSize: 256 * 1024, racingRounds: 1)

    /// Runs the suite's checks against the local service with one lie, a few at a time.
    /// - Parameters:
    ///   - lie: The promise the service breaks, or `nil` for none.
    ///   - families: Name prefixes of the checks to run (the families that look at the promise
    ///     the lie breaks; the wrapper passes everything else through), or `nil` for every check.
    ///   - options: The suite's options.
    static func run(_ lie: LyingService.Lie?, families: [String]? = nil, options: ContractSuite.Options = quick) async
        -> Report
    {
        let suite = ContractSuite(options: options) { context in
            LyingService(
                inner: try LocalService(
                    root: context.scratchDirectory.appending(path: "root"),
                    chunkSize: 1_048_576,
                    changePageSize: context.changePageSize
                ),
                lie: lie
            )
        }
        var pending = suite.checks.filter { check in families?.contains { check.name.hasPrefix($0) } ?? true }[...]
        var report = Report()
        await withTaskGroup(of: (String, Result<ContractOutcome, any Error>).self) { group in
            func startNext() {
                guard let check = pending.popFirst() else { return }
                group.addTask {
                    do {
                        return (check.name, .success(try await check.run()))
                    } catch {
                        return (check.name, .failure(error))
                    }
                }
            }
            for _ in 0..<4 { startNext() }
            for await (name, outcome) in group {
                report.ran.insert(name)
                switch outcome {
                case .success(.skipped(let reason)): report.skips[name] = reason
                case .success: break
                case .failure(let error): report.failures[name] = "\(error)"
                }
                startNext()
            }
        }
        return report
    }

    /// Fails unless exactly the named checks failed.
    static func expectFailures(_ report: Report, exactly names: Set<String>, _ comment: Comment) {
        #expect(
            names.isSubset(of: report.ran), "\(comment): the checks expected to fail did not run; ran \(report.ran)")
        #expect(Set(report.failures.keys) == names, "\(comment): failures were \(report.failures)")
    }

    @Test func theSameServiceWithoutALiePassesEveryCheck() async {
        let report = await Self.run(nil)
        Self.expectFailures(report, exactly: [], "the local service through the wrapper, no lie")
    }

    @Test func atomicWritesCheckedAtTheHeadAreCaughtByTheRaces() async {
        let report = await Self.run(
            .checksAtHeadWritesAfterBody, families: ["preconditions:"], options: ContractSuite.Options())
        Self.expectFailures(
            report, exactly: [Self.racingCreates, Self.racingReplacements],
            "checked at the head, written after the body, claimed atomic")
        #expect(report.failures[Self.racingCreates]?.contains("writers racing with") == true)
    }

    @Test func metadataDroppedOnTheLongestNameIsCaught() async {
        let report = await Self.run(.dropsMetadataOfNamesLongerThan(200), families: ["names:", "custom metadata:"])
        Self.expectFailures(report, exactly: [Self.longestName], "metadata dropped on long names")
        #expect(report.failures[Self.longestName]?.contains("metadata") == true)
    }

    @Test func transfersThatIgnoreCancellationAreCaught() async {
        let report = await Self.run(.ignoresCancellation, families: ["cancellation:", "progress:"])
        Self.expectFailures(report, exactly: [Self.cancelledUpload, Self.cancelledDownload], "cancellation ignored")
        #expect(report.failures[Self.cancelledUpload]?.contains("completed although its task was cancelled at") == true)
    }

    @Test func aCancellationThatCannotLandMidwayIsInconclusive() async {
        let report = await Self.run(.reportsProgressOnlyAtTheEnd, families: ["cancellation:", "progress:"])
        Self.expectFailures(
            report, exactly: [Self.cancelledUpload, Self.cancelledDownload], "progress only at the end")
        #expect(report.failures[Self.cancelledDownload]?.contains("inconclusive") == true)
    }

    @Test func aCoalescedFeedClaimedNativeIsCaught() async {
        let report = await Self.run(.coalescesFeed(claiming: .native), families: ["change feed:"])
        Self.expectFailures(
            report, exactly: [Self.everyChange, Self.createdAndDeleted], "coalesced feed claimed native")
        #expect(report.failures[Self.createdAndDeleted]?.contains("promises every change") == true)
    }

    @Test func aCoalescedFeedDeclaredEmulatedPasses() async {
        let report = await Self.run(.coalescesFeed(claiming: .emulated), families: ["change feed:"])
        Self.expectFailures(report, exactly: [], "coalesced feed declared emulated")
    }

    @Test func aFeedThatForgetsTheDeletionsItReportedIsCaught() async {
        let report = await Self.run(.forgetsReportedDeletions, families: ["change feed:"])
        Self.expectFailures(
            report, exactly: [Self.reRead, Self.reReadByANewInstance], "deletions forgotten once reported")
        #expect(report.failures[Self.reRead]?.contains("second read of the same token") == true)
    }

    @Test func aSlowPollerClaimingNotificationIsCaught() async {
        let interval = Duration.seconds(15)
        let report = await Self.run(
            .pollsEvery(interval, claiming: .notification(wakeBound: .seconds(1))), families: ["waiting for changes:"])
        Self.expectFailures(report, exactly: [Self.wakesWithinBound], "a 15 s poller claiming a 1 s notification")
        #expect(report.failures[Self.wakesWithinBound]?.contains("wakeBound") == true)
    }

    @Test func aSlowPollerDeclaredHonestlyPasses() async {
        let interval = Duration.seconds(15)
        let schedule = PollingSchedule(minimum: interval, maximum: interval, growth: 1, jitter: 0)
        let report = await Self.run(
            .pollsEvery(interval, claiming: .polling(schedule)), families: ["waiting for changes:"])
        Self.expectFailures(report, exactly: [], "a 15 s poller declared as polling every 15 s")
    }

    @Test func aWaitThatIgnoresCancellationIsCaught() async {
        let report = await Self.run(.ignoresCancellation, families: ["waiting for changes:"])
        Self.expectFailures(report, exactly: [Self.cancelledWait], "waiting that ignores cancellation")
        #expect(report.failures[Self.cancelledWait]?.contains("promptly") == true)
    }

    @Test func noChunkedUploadClaimedAsChunkedIsCaught() async {
        let report = await Self.run(
            .refusesUploadsAbove(4 * 1_048_576, claimingChunkedUpload: true), families: Self.sized)
        Self.expectFailures(
            report, exactly: [Self.aboveSingleUpload], "uploads above 4 MiB refused, chunked upload claimed")
        #expect(report.failures[Self.aboveSingleUpload]?.contains("payloadTooLarge") == true)
    }

    @Test func noChunkedUploadDeclaredHonestlyPasses() async {
        let report = await Self.run(
            .refusesUploadsAbove(4 * 1_048_576, claimingChunkedUpload: false), families: Self.sized)
        Self.expectFailures(report, exactly: [], "uploads above 4 MiB refused, no chunked upload declared")
        for name in Self.chunkBoundaries {
            #expect(
                report.skips[name]?.contains("supportsChunkedUpload is false") == true,
                "\(name) was not skipped: \(report.skips)")
        }
    }
}
