import Foundation
import Stratus
import Synchronization
import Testing

@testable import StratusDropbox

/// The batch-commit driver with a stand-in for Dropbox: one batch at a time, every caller
/// answered with its own entry's outcome, refusals sent again, cancellation before sending.
@Suite struct BatchCommitterTests {
    /// Records the batches sent and how many were in flight at once; the first batch can be held.
    final class FakeDropbox: Sendable {
        struct State {
            var batches: [[String]] = []
            var inFlight = 0
            var mostInFlight = 0
            var hold: CheckedContinuation<Void, Never>?
            var holdFirst = false
        }
        let state = Mutex(State())
        /// Paths refused for contention while their count is above zero.
        let refusals = Mutex<[String: Int]>([:])

        func send(_ entries: [BatchEntry]) async -> [BatchOutcome] {
            let mustHold = state.withLock { state in
                state.batches.append(entries.map(\.path.description))
                state.inFlight += 1
                state.mostInFlight = max(state.mostInFlight, state.inFlight)
                defer { state.holdFirst = false }
                return state.holdFirst
            }
            if mustHold {
                await withCheckedContinuation { continuation in state.withLock { $0.hold = continuation } }
            }
            await Task.yield()
            state.withLock { $0.inFlight -= 1 }
            return entries.map { entry in
                let refused = refusals.withLock { all -> Bool in
                    guard let left = all[entry.path.description], left > 0 else { return false }
                    all[entry.path.description] = left - 1
                    return true
                }
                if refused {
                    return .refused(
                        ServiceError(.rateLimited, "too_many_write_operations", retryAfter: .milliseconds(1)))
                }
                return .committed(
                    RemoteFile(
                        path: entry.path, id: "id:" + entry.sessionID, size: entry.size, modified: Date(),
                        contentHash: nil, version: VersionID("0123456789")))
            }
        }

        /// Lets the held batch go on (the test waited until it was held).
        func release() {
            state.withLock { state in
                defer { state.hold = nil }
                return state.hold
            }?.resume()
        }
    }

    static func entry(_ name: String) throws -> BatchEntry {
        BatchEntry(sessionID: name, size: 1, commit: [], path: try RemotePath(name), contentHash: "")
    }

    static func committer(_ fake: FakeDropbox, window: Duration = .zero, attempts: Int = 5) throws -> BatchCommitter {
        BatchCommitter(settings: try CommitBatching(window: window), maximumAttempts: attempts) { await fake.send($0) }
    }

    @Test func commitsThatArriveWhileABatchIsInFlightGoTogetherInTheNextOne() async throws {
        let fake = FakeDropbox()
        fake.state.withLock { $0.holdFirst = true }
        let committer = try Self.committer(fake)
        let names = (0..<40).map { "f\($0).bin" }
        try await withThrowingTaskGroup(of: (String, RemoteFile).self) { group in
            group.addTask { (names[0], try await committer.commit(try Self.entry(names[0]))) }
            while fake.state.withLock({ $0.hold == nil }) { await Task.yield() }
            for name in names.dropFirst() {
                group.addTask { (name, try await committer.commit(try Self.entry(name))) }
            }
            while await committer.waitingCount < 39 { await Task.yield() }
            fake.release()
            for try await (name, file) in group {
                #expect(file.path.description == name)
                #expect(file.id == "id:" + name)
            }
        }
        let state = fake.state.withLock { $0 }
        #expect(state.batches.map(\.count) == [1, 39])
        #expect(Set(state.batches.joined()) == Set(names))
        #expect(state.mostInFlight == 1)
    }

    @Test func uploadsThatStartTogetherAreCommittedTogether() async throws {
        let fake = FakeDropbox()
        // A window far longer than the test: only the last arrival can send the batch.
        let committer = try Self.committer(fake, window: .seconds(10))
        let names = (0..<10).map { "u\($0).bin" }
        var tickets: [BatchCommitter.Ticket] = []
        for _ in names { tickets.append(await committer.announce()) }
        let announced = tickets
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (name, ticket) in zip(names, announced) {
                group.addTask { _ = try await committer.commit(try Self.entry(name), ticket: ticket) }
            }
            try await group.waitForAll()
        }
        let batches = fake.state.withLock { $0.batches }
        #expect(batches.count == 1)
        #expect(Set(batches.joined()) == Set(names))
    }

    @Test func aCommitWaitsForAnnouncedUploadsUntilTheyAreAbandoned() async throws {
        let fake = FakeDropbox()
        let committer = try Self.committer(fake, window: .seconds(10))
        let first = await committer.announce()
        let second = await committer.announce()
        let commit = Task { try await committer.commit(try Self.entry("first"), ticket: first) }
        while await committer.waitingCount < 1 { await Task.yield() }
        // Still waiting for the second upload: nothing was sent.
        #expect(fake.state.withLock { $0.batches }.isEmpty)
        await committer.abandon(second)
        _ = try await commit.value
        #expect(fake.state.withLock { $0.batches } == [["first"]])
    }

    @Test func anEntryRefusedForContentionRidesInTheNextBatch() async throws {
        let fake = FakeDropbox()
        fake.refusals.withLock { $0["b"] = 1 }
        let committer = try Self.committer(fake, window: .milliseconds(5))
        async let a = committer.commit(try Self.entry("a"))
        async let b = committer.commit(try Self.entry("b"))
        let files = try await [a, b]
        #expect(files.map(\.path.description) == ["a", "b"])
        let batches = fake.state.withLock { $0.batches }
        #expect(batches.last == ["b"])
        #expect(batches.joined().filter { $0 == "b" }.count == 2)
    }

    @Test func anEntryRefusedOnEveryAttemptFailsWithTheRateLimit() async throws {
        let fake = FakeDropbox()
        fake.refusals.withLock { $0["c"] = 100 }
        let committer = try Self.committer(fake, attempts: 3)
        await #expect {
            _ = try await committer.commit(try Self.entry("c"))
        } throws: { ($0 as? ServiceError)?.code == .rateLimited }
        #expect(fake.state.withLock { $0.batches } == [["c"], ["c"], ["c"]])
    }

    @Test func aCommitCancelledWhileItWaitsIsNeverSent() async throws {
        let fake = FakeDropbox()
        fake.state.withLock { $0.holdFirst = true }
        let committer = try Self.committer(fake)
        let first = Task { try await committer.commit(try Self.entry("first")) }
        while fake.state.withLock({ $0.hold == nil }) { await Task.yield() }
        let waiting = Task { try await committer.commit(try Self.entry("cancelled")) }
        while await committer.waitingCount < 1 { await Task.yield() }
        waiting.cancel()
        while await committer.waitingCount > 0 { await Task.yield() }
        fake.release()
        _ = try await first.value
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(fake.state.withLock { $0.batches } == [["first"]])
    }
}
