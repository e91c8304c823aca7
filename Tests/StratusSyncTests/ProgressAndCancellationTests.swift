import Foundation
import Stratus
import StratusSync
import Synchronization
import Testing

/// A sync reports its progress, and a cancelled sync stops, loses nothing and resumes.
@Suite struct ProgressAndCancellationTests {
    private static func device(
        _ harness: SyncHarness, _ name: String, progress: (@Sendable (SyncProgress) -> Void)? = nil
    ) throws -> SyncStore {
        var configuration = SyncConfiguration(deviceName: name)
        configuration.progress = progress
        return try SyncStore(
            folder: harness.folder.appending(path: "devices/\(name)"), service: harness.remote,
            configuration: configuration)
    }

    @Test func progressCountsRecordsAndBytes() async throws {
        let harness = try SyncHarness()
        defer { harness.remove() }
        let seen = Mutex<[SyncProgress]>([])
        let a = try Self.device(harness, "a") { progress in seen.withLock { $0.append(progress) } }
        var batch = SyncBatch()
        for index in 0..<20 {
            try batch.save(
                Save(level: index), as: key("slot-\(index)"),
                files: ["state": harness.file("s", String(repeating: "x", count: 1000 + index))])
        }
        try a.write(batch)
        try await a.sync()
        let pushing = seen.withLock { $0 }.filter { $0.phase == .pushing }
        #expect(pushing.last?.completedRecords == 20)
        #expect(pushing.last?.totalRecords == 20)
        #expect(zip(pushing, pushing.dropFirst()).allSatisfy { $0.transferredBytes <= $1.transferredBytes })
        #expect((pushing.last?.transferredBytes ?? 0) >= 20 * 1000, "file bytes are counted")
    }

    @Test func aCancelledSyncLosesNothingAndTheNextOneFinishes() async throws {
        let harness = try SyncHarness()
        defer { harness.remove() }
        let started = Mutex(0)
        let gate = AsyncStream<Void>.makeStream()
        let a = try harness.device("a")
        var batch = SyncBatch()
        for index in 0..<40 { try batch.save(Save(level: index), as: key("slot-\(index)")) }
        try a.write(batch)
        // Hold uploads once a few went through, so the cancel lands mid-push.
        harness.remote.beforeUpload { _, _ in
            let count = started.withLock { count in
                count += 1
                return count
            }
            if count == 5 { gate.continuation.yield() }
            if count >= 5 { try await Task.sleep(for: .seconds(30)) }
        }
        let sync = Task { try await a.sync() }
        var signals = gate.stream.makeAsyncIterator()
        _ = await signals.next()
        sync.cancel()
        do {
            let report = try await sync.value
            Issue.record("the sync finished despite the cancel: \(report.pushed.count) pushed")
        } catch let error as SyncError {
            #expect(error.code == .cancelled, "\(error)")
        }
        #expect(try a.pendingChangeCount() > 0, "what was not pushed is still waiting")
        harness.remote.beforeUpload(nil)
        let report = try await a.sync()
        #expect(report.isClean)
        #expect(try a.pendingChangeCount() == 0)
        let b = try harness.device("b")
        try await b.sync()
        #expect(try b.records(ofType: "save").count == 40)
    }
}
