import Synchronization
import Testing

@testable import StratusSync

/// How concurrent sync calls share runs.
@Suite struct CoalescerTests {
    @Test func callsDuringARunShareOneFollowUpRun() async throws {
        let coalescer = SyncCoalescer()
        let runs = Mutex(0)
        let (release, releaser) = AsyncStream<Void>.makeStream()
        let (started, starter) = AsyncStream<Int>.makeStream()
        let body: @Sendable () async throws -> SyncReport = {
            let number = runs.withLock { runs in
                runs += 1
                return runs
            }
            starter.yield(number)
            if number == 1 { for await _ in release { break } }
            var report = SyncReport()
            report.pulled = Array(repeating: try RecordKey(type: "run", id: "\(number)"), count: 1)
            return report
        }
        var starts = started.makeAsyncIterator()
        let first = Task { try await coalescer.run(body) }
        #expect(await starts.next() == 1)
        // Three calls while the first run is held: they share one follow-up run.
        let second = Task { try await coalescer.run(body) }
        let third = Task { try await coalescer.run(body) }
        let fourth = Task { try await coalescer.run(body) }
        while coalescer.waitingCalls < 4 { try await Task.sleep(for: .milliseconds(5)) }
        releaser.yield()
        #expect(try await first.value.pulled.map(\.id) == ["1"])
        for call in [second, third, fourth] {
            #expect(try await call.value.pulled.map(\.id) == ["2"], "a call made during run 1 gets run 2's report")
        }
        #expect(runs.withLock { $0 } == 2)
        // With nothing running, a call starts a run of its own.
        #expect(try await coalescer.run(body).pulled.map(\.id) == ["3"])
    }
}
