import Foundation
import Logging
import ServiceLifecycle
import Stratus
import StratusSync
import SyncSimulation
import Synchronization
import Testing

/// Two devices with automatic sync and no `sync()` call: what one saves reaches the other by
/// itself, on every remote kind, through an outage and a shutdown.
///
/// Limits here are generous (a minute) so that a loaded machine does not fail them; the
/// propagation time itself is measured by `Benchmarks/run-sync-benchmark.sh`, not here.
@Suite struct AutomaticSyncTests {
    /// Quick retries, so that the tests of outages do not wait for the default backoff.
    static let quick = AutomaticSyncConfiguration(
        debounce: .milliseconds(100), maximumDelay: .seconds(1), firstRetry: .milliseconds(100),
        maximumRetry: .seconds(1), maximumOfflineRetry: .milliseconds(300))

    @Test(arguments: SimulationRemote.available)
    func aSaveOnOneDeviceReachesTheOtherByItself(_ kind: SimulationRemote) async throws {
        try await SyncHarness.with(kind) { harness in
            let a = try harness.device("a")
            let b = try harness.device("b")
            try await running(a.automaticSync(Self.quick), b.automaticSync(Self.quick)) {
                try await eventually("both devices finished their first sync") {
                    !a.status.isSyncing && !b.status.isSyncing && a.status.isSettled && b.status.isSettled
                }
                let changes = b.changes()
                try a.save(Save(level: 13), as: key("slot-1"), files: ["state": harness.file("state", "thirteen")])
                let change = try await first(of: changes) { $0.key == (try? key("slot-1")) && $0.origin == .remote }
                #expect(change.kind == .updated)
                #expect(try b.record(key("slot-1"))?.decode(Save.self).level == 13)
                #expect(try text(of: b.record(key("slot-1")), "state") == "thirteen")
                // And back, with a delete.
                try b.delete(key("slot-1"))
                try await eventually("the delete reached a") { try a.record(key("slot-1")) == nil }
            }
            #expect(try a.pendingChangeCount() == 0)
            #expect(try b.pendingChangeCount() == 0)
        }
    }

    @Test func anOfflineDeviceSaysSoAndCatchesUpWhenTheNetworkIsBack() async throws {
        let harness = try SyncHarness()
        defer { harness.remove() }
        let link = SwitchableService(harness.remote)
        let a = try harness.device("a", service: link)
        let b = try harness.device("b")
        try await running(a.automaticSync(Self.quick), b.automaticSync(Self.quick)) {
            try await eventually("a synced once") { a.status.isSettled }
            link.isOffline = true
            try a.save(Save(level: 2), as: key("offline-edit"))
            let statuses = a.statusUpdates()
            // Automatic sync says when it tries again.
            let offline = try await first(of: statuses) { status in
                if case .offline(_, let next) = status { next != nil } else { false }
            }
            #expect(offline.isOffline)
            #expect(try a.pendingChangeCount() == 1, "nothing is lost while offline")
            link.isOffline = false
            try await eventually("the offline edit reached b") {
                try b.record(key("offline-edit"))?.decode(Save.self).level == 2
            }
            try await eventually("a is settled again") { a.status.isSettled }
        }
    }

    @Test func serverFailuresBackOffAndRecover() async throws {
        let harness = try SyncHarness()
        defer { harness.remove() }
        let failing = SwitchableService(harness.remote)
        let a = try harness.device("a", service: failing)
        let b = try harness.device("b")
        try await running(a.automaticSync(Self.quick), b.automaticSync(Self.quick)) {
            try await eventually("a synced once") { a.status.isSettled }
            failing.failuresLeft = 4
            try a.save(Save(level: 5), as: key("after-503s"))
            let statuses = a.statusUpdates()
            let failed = try await first(of: statuses) { status in
                if case .failing(_, let next) = status { next != nil } else { false }
            }
            guard case .failing(let error, _) = failed else { return }
            #expect(error.serviceCode == .server)
            try await eventually("the edit went through after the failures") {
                try b.record(key("after-503s"))?.decode(Save.self).level == 5
            }
            #expect(failing.failuresLeft == 0)
        }
    }

    /// The mocks answer half of all requests with 503 (the mock kit's fault injection, not a
    /// wrapper): the adapters' retries and automatic sync's backoff still bring every save across.
    @Test(arguments: [SimulationRemote.dropbox, .drive, .onedrive])
    func fiveHundredThreesFromTheMockBackOffAndRecover(_ kind: SimulationRemote) async throws {
        try await SyncHarness.withFaults(kind, chance: 0.5) { harness, faults in
            let a = try harness.device("a")
            let b = try harness.device("b")
            try await running(a.automaticSync(Self.quick), b.automaticSync(Self.quick)) {
                try await eventually("both devices finished their first sync") {
                    a.status.isSettled && b.status.isSettled
                }
                try await faults(true)
                for index in 0..<3 {
                    try a.save(Save(level: index + 1), as: key("through-503s-\(index)"))
                }
                try await eventually("the saves went through the 503s") {
                    try (0..<3).allSatisfy { index in
                        try b.record(key("through-503s-\(index)"))?.decode(Save.self).level == index + 1
                    }
                }
                try await faults(false)
                try await eventually("a settled") { a.status.isSettled && (try? a.pendingChangeCount()) == 0 }
            }
        }
    }

    @Test func stoppingInTheMiddleOfARunLosesNothing() async throws {
        let harness = try SyncHarness()
        defer { harness.remove() }
        let a = try harness.device("a")
        for index in 0..<40 {
            try a.save(Save(level: index), as: key("record-\(index)"), files: ["f": harness.file("f", "file \(index)")])
        }
        let automatic = a.automaticSync(Self.quick)
        let statuses = a.statusUpdates()
        let task = Task { try await automatic.run() }
        _ = try await first(of: statuses) { $0.isSyncing }
        task.cancel()
        try await task.value
        // Whatever the cancelled run did stays done; the next sync finishes the rest.
        try await a.sync()
        let b = try harness.device("b")
        try await b.sync()
        #expect(try b.records(ofType: "save").count == 40)
        #expect(try a.pendingChangeCount() == 0)
    }

    @Test func aReplacedRemoteStopsAutomaticSyncUntilTheAppTakesAWayOut() async throws {
        let harness = try SyncHarness()
        defer { harness.remove() }
        let a = try harness.device("a")
        try a.save(Save(level: 4), as: key("kept"))
        try await a.sync()
        let statuses = a.statusUpdates()
        let automatic = a.automaticSync(Self.quick)
        let task = Task { try await automatic.run() }
        try await eventually("a settled") { a.status.isSettled }
        // The remote folder is emptied by hand (no tombstones), its marker first, so that a
        // sync that runs meanwhile meets the missing marker rather than a vanished record.
        try await harness.remote.delete(RemotePath("stratus-sync/store.json"))
        try await harness.removeRemoteFiles(below: "stratus-sync")
        let stopped = try await first(of: statuses) { status in
            if case .failing(let error, let next) = status {
                error.code == .remoteReplaced && next == nil
            } else {
                false
            }
        }
        #expect(!stopped.isSettled)
        #expect(try a.record(key("kept"))?.decode(Save.self).level == 4, "nothing was deleted on the device")
        // The app seeds the remote again from this device; automatic sync resumes by itself.
        try await a.reseedRemote()
        try await eventually("a pushed its data again") {
            a.status.isSettled && (try? a.pendingChangeCount()) == 0
        }
        let b = try harness.device("b")
        try await b.sync()
        #expect(try b.record(key("kept"))?.decode(Save.self).level == 4)
        task.cancel()
        try await task.value
    }

    @Test func aGracefulShutdownOfItsServiceGroupPushesWhatIsWaiting() async throws {
        let harness = try SyncHarness()
        defer { harness.remove() }
        let a = try harness.device("a")
        // A debounce far longer than the test: only the shutdown can push the write.
        let automatic = a.automaticSync(
            AutomaticSyncConfiguration(debounce: .seconds(3600), maximumDelay: .seconds(3600)))
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(services: [automatic], logger: Logger(label: "test")))
        let running = Task { try await group.run() }
        try await eventually("the first sync ran") { a.status.isSettled }
        try a.save(Save(level: 21), as: key("before-shutdown"))
        #expect(try a.pendingChangeCount() == 1)
        await group.triggerGracefulShutdown()
        try await running.value
        #expect(try a.pendingChangeCount() == 0, "the shutdown pushed the waiting write")
        let b = try harness.device("b")
        try await b.sync()
        #expect(try b.record(key("before-shutdown"))?.decode(Save.self).level == 21)
    }

    /// A sync stuck on a request that never answers: a graceful shutdown cancels it once its
    /// grace is over, instead of waiting for the request (issue 39, item 1).
    @Test func aGracefulShutdownEndsAStuckSyncAfterItsGrace() async throws {
        let harness = try SyncHarness()
        defer { harness.remove() }
        let stuck = SwitchableService(harness.remote)
        let a = try harness.device("a", service: stuck)
        let automatic = a.automaticSync(AutomaticSyncConfiguration(shutdownGrace: .milliseconds(500)))
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(services: [automatic], logger: Logger(label: "test")))
        let running = Task { try await group.run() }
        try await eventually("the first sync ran") { a.status.isSettled }
        stuck.hangs.withLock { $0 = true }
        try a.save(Save(level: 22), as: key("stuck"))
        try await eventually("a sync is stuck") { stuck.hanging.withLock { $0 } > 0 }
        await group.triggerGracefulShutdown()
        // The grace and the cancellation; a minute is far above that, and far below the hang.
        let ended = try await withThrowingTaskGroup(of: Bool.self) { waiting in
            waiting.addTask {
                try await running.value
                return true
            }
            waiting.addTask {
                try await Task.sleep(for: .seconds(60))
                return false
            }
            defer { waiting.cancelAll() }
            return try await waiting.next() ?? false
        }
        if !ended { running.cancel() }
        #expect(ended, "the shutdown ended within a minute")
        #expect(try a.pendingChangeCount() == 1, "the write waits for the next run, not lost")
    }

    @Test func aRunningInstanceRefusesASecondRun() async throws {
        let harness = try SyncHarness()
        defer { harness.remove() }
        let a = try harness.device("a")
        let automatic = a.automaticSync(Self.quick)
        let task = Task { try await automatic.run() }
        try await eventually("it ran its first sync") { a.status.isSettled }
        await #expect(throws: SyncError.self) { try await automatic.run() }
        task.cancel()
        try await task.value
    }
}

extension SyncStatus {
    /// Idle or waiting for the app: the last sync finished.
    var isSettled: Bool {
        switch self {
        case .idle(let last): last != nil
        case .needsAttention: true
        case .syncing, .offline, .failing: false
        }
    }
}

/// Runs two automatic syncs around `body`, then cancels them and waits for them to end.
func running(_ first: AutomaticSync, _ second: AutomaticSync, _ body: () async throws -> Void) async throws {
    let tasks = [Task { try await first.run() }, Task { try await second.run() }]
    do {
        try await body()
    } catch {
        for task in tasks { task.cancel() }
        throw error
    }
    for task in tasks {
        task.cancel()
        try await task.value
    }
}

/// Waits until `condition` holds, checking every 20 ms, for at most a minute (a limit meant
/// for a loaded machine, not a measure of speed).
func eventually(
    _ what: String, within limit: Duration = .seconds(60), _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + limit
    while try await !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("Not within \(limit): \(what)")
            throw CancellationError()
        }
        try await Task.sleep(for: .milliseconds(20))
    }
}

/// The first element of a sequence that matches, waiting at most a minute.
func first<Element: Sendable>(
    of sequence: AsyncStream<Element>, within limit: Duration = .seconds(60),
    where matches: @escaping @Sendable (Element) -> Bool
) async throws -> Element {
    try await withThrowingTaskGroup(of: Element?.self) { group in
        group.addTask {
            for await element in sequence where matches(element) { return element }
            return nil
        }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        defer { group.cancelAll() }
        guard let found = try await group.next(), let element = found else {
            Issue.record("No matching element within \(limit).")
            throw CancellationError()
        }
        return element
    }
}
