import Testing

@testable import StratusDropbox

/// The batch-commit decisions, apart from I/O.
@Suite struct BatchQueueTests {
    @Test func theFirstCommitAfterAQuietSpellOpensAWindowAndLaterOnesJoinIt() {
        var queue = BatchQueue<Int>(maximumEntries: 10)
        #expect(queue.add(1) == .openWindow(1))
        #expect(queue.add(2) == .none)
        #expect(queue.add(3) == .none)
        #expect(queue.windowClosed(1) == .send([1, 2, 3]))
        #expect(queue.waiting.isEmpty)
    }

    @Test func commitsArrivingWhileABatchIsInFlightFormTheNextBatch() {
        var queue = BatchQueue<Int>(maximumEntries: 10)
        _ = queue.add(1)
        #expect(queue.windowClosed(1) == .send([1]))
        #expect(queue.add(2) == .none)
        #expect(queue.add(3) == .none)
        #expect(queue.batchFinished(again: []) == .send([2, 3]))
        #expect(queue.batchFinished(again: []) == .none)
        #expect(queue.inFlight == nil)
    }

    @Test func aFullWindowIsSentAtOnceAndItsTimerThenDoesNothing() {
        var queue = BatchQueue<Int>(maximumEntries: 2)
        #expect(queue.add(1) == .openWindow(1))
        #expect(queue.add(2) == .send([1, 2]))
        #expect(queue.add(3) == .none)
        #expect(queue.windowClosed(1) == .none)
        #expect(queue.batchFinished(again: []) == .send([3]))
    }

    @Test func batchesNeverExceedTheMaximumAndKeepArrivalOrder() {
        var queue = BatchQueue<Int>(maximumEntries: 3)
        _ = queue.add(0)
        #expect(queue.windowClosed(1) == .send([0]))
        for key in 1...7 { #expect(queue.add(key) == .none) }
        #expect(queue.batchFinished(again: []) == .send([1, 2, 3]))
        #expect(queue.batchFinished(again: []) == .send([4, 5, 6]))
        #expect(queue.batchFinished(again: []) == .send([7]))
    }

    @Test func refusedCommitsGoFirstInTheNextBatch() {
        var queue = BatchQueue<Int>(maximumEntries: 10)
        _ = queue.add(1)
        _ = queue.add(2)
        #expect(queue.windowClosed(1) == .send([1, 2]))
        _ = queue.add(3)
        #expect(queue.batchFinished(again: [2]) == .send([2, 3]))
    }

    @Test func aLateTimerCannotCloseANewerWindow() {
        var queue = BatchQueue<Int>(maximumEntries: 2)
        #expect(queue.add(1) == .openWindow(1))
        #expect(queue.add(2) == .send([1, 2]))
        #expect(queue.batchFinished(again: []) == .none)
        #expect(queue.add(3) == .openWindow(2))
        #expect(queue.windowClosed(1) == .none)
        #expect(queue.windowClosed(2) == .send([3]))
    }

    @Test func onlyAWaitingCommitCanBeWithdrawn() {
        var queue = BatchQueue<Int>(maximumEntries: 10)
        _ = queue.add(1)
        _ = queue.add(2)
        let waitingOne = queue.withdraw(2)
        #expect(waitingOne)
        #expect(queue.windowClosed(1) == .send([1]))
        let sentOne = queue.withdraw(1)
        let unknownOne = queue.withdraw(9)
        #expect(!sentOne && !unknownOne)
    }
}
