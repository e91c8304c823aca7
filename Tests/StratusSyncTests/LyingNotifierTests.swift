import Foundation
import Stratus
import StratusAdapterKit
import StratusSync
import Synchronization
import Testing

/// A notifier that reports a change at once, every time, while the feed shows nothing (issue 39:
/// an idle device sent 58 requests a second): each wake that finds nothing makes the next wait
/// longer, so no notifier drives a device faster than the pause; a real change still arrives.
@Suite struct LyingNotifierTests {
    /// `waitForChanges` that always answers at once that changes are waiting.
    final class LyingService: ForwardingService {
        let base: any Service
        let waits = Mutex(0)
        init(_ base: any Service) { self.base = base }

        func waitForChanges(after token: ChangeToken, timeout: Duration) async throws -> ChangeWaitOutcome {
            waits.withLock { $0 += 1 }
            return .changesAvailable
        }
    }

    @Test func wakesWithoutCauseBackOffAndARealChangeStillArrives() async throws {
        let harness = try SyncHarness()
        defer { harness.remove() }
        let lying = LyingService(harness.remote)
        let watched = try harness.device("watched", service: lying)
        let other = try harness.device("other")
        let configuration = AutomaticSyncConfiguration(
            debounce: .milliseconds(100), maximumDelay: .seconds(1), firstRetry: .milliseconds(100),
            maximumRetry: .seconds(1), maximumOfflineRetry: .milliseconds(300))
        let automatic = watched.automaticSync(configuration)
        let task = Task { try await automatic.run() }
        defer { task.cancel() }
        try await eventually("the first sync ran") {
            (try? watched.pendingChangeCount()) == 0 && watched.status.isSettled
        }
        let before = lying.waits.withLock { $0 }
        try await Task.sleep(for: .seconds(4))
        let wakes = lying.waits.withLock { $0 } - before
        // Pauses of 0, 0.1, 0.2, 0.4, 0.8, 1, 1, ... seconds: about 8 wakes in 4 s, however fast
        // the machine (a slower one makes fewer); without them, thousands.
        #expect(wakes <= 16, "\(wakes) wakes in 4 s")

        try other.save(["level": 13], as: RecordKey(type: "save", id: "slot-1"))
        try await other.sync()
        try await eventually("the real change arrived") {
            try watched.record(RecordKey(type: "save", id: "slot-1")) != nil
        }
    }
}
