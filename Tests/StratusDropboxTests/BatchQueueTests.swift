import Testing

@testable import StratusDropbox

/// The batch-commit decisions, apart from I/O.
@Suite struct BatchQueueTests {
    @Test func aLoneCommitIsSentAtOnce() {
        var queue = BatchQueue<Int>(maximumEntries: 10)
        queue.announce()
        #expect(queue.add(1, wasAnnounced: true) == .send([1]))
        #expect(queue.batchFinished(again: []) == .none)
        queue.announce()
        #expect(queue.add(2, wasAnnounced: true) == .send([2]))
    }

    @Test func theNextBatchWaitsForTheUploadsTheEndedBatchsCallersStart() {
        var queue = BatchQueue<Int>(maximumEntries: 10)
        for _ in 1...4 { queue.announce() }
        #expect(queue.add(1, wasAnnounced: true) == .openWindow(1))
        #expect(queue.add(2, wasAnnounced: true) == .none)
        #expect(queue.windowClosed(1) == .send([1, 2]))
        #expect(queue.add(3, wasAnnounced: true) == .none)
        #expect(queue.add(4, wasAnnounced: true) == .none)
        // 1 and 2 are settled; their callers start the next uploads, which join 3 and 4.
        #expect(queue.batchFinished(again: []) == .openWindow(2))
        queue.announce()
        queue.announce()
        #expect(queue.add(5, wasAnnounced: true) == .none)
        #expect(queue.add(6, wasAnnounced: true) == .send([3, 4, 5, 6]))
        #expect(queue.windowClosed(2) == .none)
    }

    @Test func theWaitAfterABatchEndsWithTheWindow() {
        var queue = BatchQueue<Int>(maximumEntries: 10)
        #expect(queue.add(1) == .send([1]))
        #expect(queue.add(2) == .none)
        #expect(queue.batchFinished(again: []) == .openWindow(1))
        #expect(queue.windowClosed(1) == .send([2]))
    }

    @Test func commitsWaitForTheUploadsStillOnTheirWayThenGoTogether() {
        var queue = BatchQueue<Int>(maximumEntries: 10)
        for _ in 1...3 { queue.announce() }
        #expect(queue.add(1, wasAnnounced: true) == .openWindow(1))
        #expect(queue.add(2, wasAnnounced: true) == .none)
        #expect(queue.add(3, wasAnnounced: true) == .send([1, 2, 3]))
        #expect(queue.windowClosed(1) == .none)
    }

    @Test func theWindowEndsTheWaitForASlowUpload() {
        var queue = BatchQueue<Int>(maximumEntries: 10)
        for _ in 1...3 { queue.announce() }
        #expect(queue.add(1, wasAnnounced: true) == .openWindow(1))
        #expect(queue.add(2, wasAnnounced: true) == .none)
        #expect(queue.windowClosed(1) == .send([1, 2]))
        #expect(queue.announced == 1)
        #expect(queue.add(3, wasAnnounced: true) == .none)
        #expect(queue.batchFinished(again: []) == .openWindow(2))
        #expect(queue.windowClosed(2) == .send([3]))
    }

    @Test func anAbandonedUploadIsNotWaitedFor() {
        var queue = BatchQueue<Int>(maximumEntries: 10)
        queue.announce()
        queue.announce()
        #expect(queue.add(1, wasAnnounced: true) == .openWindow(1))
        #expect(queue.abandon() == .send([1]))
        #expect(queue.announced == 0)
    }

    @Test func commitsArrivingWhileABatchIsInFlightFormTheNextBatch() {
        var queue = BatchQueue<Int>(maximumEntries: 10)
        #expect(queue.add(1) == .send([1]))
        #expect(queue.add(2) == .none)
        #expect(queue.add(3) == .none)
        // More wait than the batch settled: they go at once.
        #expect(queue.batchFinished(again: []) == .send([2, 3]))
        #expect(queue.batchFinished(again: []) == .none)
        #expect(queue.inFlight == nil)
    }

    @Test func aFullBatchIsSentWithoutWaitingForTheRest() {
        var queue = BatchQueue<Int>(maximumEntries: 2)
        for _ in 1...3 { queue.announce() }
        #expect(queue.add(1, wasAnnounced: true) == .openWindow(1))
        #expect(queue.add(2, wasAnnounced: true) == .send([1, 2]))
        #expect(queue.add(3, wasAnnounced: true) == .none)
        #expect(queue.windowClosed(1) == .none)
        #expect(queue.batchFinished(again: []) == .openWindow(2))
        #expect(queue.windowClosed(2) == .send([3]))
    }

    @Test func batchesNeverExceedTheMaximumAndKeepArrivalOrder() {
        var queue = BatchQueue<Int>(maximumEntries: 3)
        #expect(queue.add(0) == .send([0]))
        for key in 1...7 { #expect(queue.add(key) == .none) }
        // A full batch waits for nobody.
        #expect(queue.batchFinished(again: []) == .send([1, 2, 3]))
        #expect(queue.batchFinished(again: []) == .send([4, 5, 6]))
        #expect(queue.batchFinished(again: []) == .openWindow(1))
        #expect(queue.windowClosed(1) == .send([7]))
    }

    @Test func refusedCommitsGoFirstInTheNextBatchWhichWaitsForNobodyWhenNoneWasSettled() {
        var queue = BatchQueue<Int>(maximumEntries: 10)
        #expect(queue.add(1) == .send([1]))
        _ = queue.add(2)
        #expect(queue.batchFinished(again: [1]) == .send([1, 2]))
    }

    @Test func aLateTimerCannotCloseANewerWindow() {
        var queue = BatchQueue<Int>(maximumEntries: 10)
        for _ in 1...2 { queue.announce() }
        #expect(queue.add(1, wasAnnounced: true) == .openWindow(1))
        #expect(queue.add(2, wasAnnounced: true) == .send([1, 2]))
        #expect(queue.batchFinished(again: []) == .none)
        for _ in 1...2 { queue.announce() }
        #expect(queue.add(3, wasAnnounced: true) == .openWindow(2))
        #expect(queue.windowClosed(1) == .none)
        #expect(queue.windowClosed(2) == .send([3]))
    }

    @Test func onlyAWaitingCommitCanBeWithdrawn() {
        var queue = BatchQueue<Int>(maximumEntries: 10)
        for _ in 1...3 { queue.announce() }
        _ = queue.add(1, wasAnnounced: true)
        _ = queue.add(2, wasAnnounced: true)
        let waitingOne = queue.withdraw(2)
        #expect(waitingOne)
        #expect(queue.windowClosed(1) == .send([1]))
        let sentOne = queue.withdraw(1)
        let unknownOne = queue.withdraw(9)
        #expect(!sentOne && !unknownOne)
    }
}
