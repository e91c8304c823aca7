import Foundation
import Stratus
import StratusContract
import StratusLocal
import Testing

/// The contract suite against a local service that breaks one promise on purpose: each false
/// claim must fail exactly the checks that look at that promise, and the same service without
/// the lie must pass them all.
@Suite struct FalseClaimTests {
    static let racingCreates = "preconditions: racing mustNotExist writes, exactly one wins"
    static let racingReplacements = "preconditions: racing mustMatch writes of one version, exactly one wins"
    static let longestName = "names: a name of the longest allowed length keeps its content and metadata"
    static let cancelledUpload = "cancellation: an upload cancelled midway leaves nothing partial"
    static let cancelledDownload = "cancellation: a download cancelled midway leaves the destination as it was"
    static let everyChange = "change feed: an upload and a delete are reported in order"
    static let createdAndDeleted = "change feed: a file created and deleted between two polls, as the feed's kind promises"
    static let aboveSingleUpload = "round trip: largestSingleUpload+1 bytes"
    static let chunkBoundaries = ["round trip: chunkSize-1 bytes", "round trip: chunkSize bytes", "round trip: 2×chunkSize+1 bytes"]

    /// What running every check against one service gave.
    struct Report {
        var failures: [String: String] = [:]
        var skips: [String: String] = [:]
    }

    /// Runs every check of the suite against the local service with one lie, a few at a time.
    static func run(_ lie: LyingService.Lie?) async -> Report {
        let suite = ContractSuite(options: ContractSuite.Options(cancellationContentSize: 8 * 1_048_576)) { context in
            LyingService(
                inner: try LocalService(
                    root: context.scratchDirectory.appending(path: "root"),
                    chunkSize: 1_048_576,
                    changePageSize: context.changePageSize
                ),
                lie: lie
            )
        }
        var pending = suite.checks[...]
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
        #expect(Set(report.failures.keys) == names, "\(comment): failures were \(report.failures)")
    }

    @Test func theSameServiceWithoutALiePassesEveryCheck() async {
        let report = await Self.run(nil)
        Self.expectFailures(report, exactly: [], "the local service through the wrapper, no lie")
    }

    @Test func atomicWritesCheckedAtTheHeadAreCaughtByTheRaces() async {
        let report = await Self.run(.checksAtHeadWritesAfterBody)
        Self.expectFailures(report, exactly: [Self.racingCreates, Self.racingReplacements], "checked at the head, written after the body, claimed atomic")
        #expect(report.failures[Self.racingCreates]?.contains("writers racing with") == true)
    }

    @Test func metadataDroppedOnTheLongestNameIsCaught() async {
        let report = await Self.run(.dropsMetadataOfNamesLongerThan(200))
        Self.expectFailures(report, exactly: [Self.longestName], "metadata dropped on long names")
        #expect(report.failures[Self.longestName]?.contains("metadata") == true)
    }

    @Test func transfersThatIgnoreCancellationAreCaught() async {
        let report = await Self.run(.ignoresCancellation)
        Self.expectFailures(report, exactly: [Self.cancelledUpload, Self.cancelledDownload], "cancellation ignored")
        #expect(report.failures[Self.cancelledUpload]?.contains("completed although its task was cancelled at") == true)
    }

    @Test func aCancellationThatCannotLandMidwayIsInconclusive() async {
        let report = await Self.run(.reportsProgressOnlyAtTheEnd)
        Self.expectFailures(report, exactly: [Self.cancelledUpload, Self.cancelledDownload], "progress only at the end")
        #expect(report.failures[Self.cancelledDownload]?.contains("inconclusive") == true)
    }

    @Test func aCoalescedFeedClaimedNativeIsCaught() async {
        let report = await Self.run(.coalescesFeed(claiming: .native))
        Self.expectFailures(report, exactly: [Self.everyChange, Self.createdAndDeleted], "coalesced feed claimed native")
        #expect(report.failures[Self.createdAndDeleted]?.contains("promises every change") == true)
    }

    @Test func aCoalescedFeedDeclaredEmulatedPasses() async {
        let report = await Self.run(.coalescesFeed(claiming: .emulated))
        Self.expectFailures(report, exactly: [], "coalesced feed declared emulated")
    }

    @Test func noChunkedUploadClaimedAsChunkedIsCaught() async {
        let report = await Self.run(.refusesUploadsAbove(4 * 1_048_576, claimingChunkedUpload: true))
        Self.expectFailures(
            report, exactly: [Self.aboveSingleUpload, Self.cancelledUpload, Self.cancelledDownload],
            "uploads above 4 MiB refused, chunked upload claimed"
        )
        #expect(report.failures[Self.aboveSingleUpload]?.contains("payloadTooLarge") == true)
    }

    @Test func noChunkedUploadDeclaredHonestlyPasses() async {
        let report = await Self.run(.refusesUploadsAbove(4 * 1_048_576, claimingChunkedUpload: false))
        Self.expectFailures(report, exactly: [], "uploads above 4 MiB refused, no chunked upload declared")
        for name in Self.chunkBoundaries {
            #expect(report.skips[name]?.contains("supportsChunkedUpload is false") == true, "\(name) was not skipped: \(report.skips)")
        }
    }
}
