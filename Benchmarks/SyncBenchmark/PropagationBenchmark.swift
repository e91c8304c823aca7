import BenchmarkSupport
import Foundation
import Stratus
import StratusSync
import SyncSimulation

/// Automatic sync on one remote: how long a save on device A takes to reach device B's
/// `changes()` with nobody calling `sync()`, over a number of changes, then what both devices
/// cost while nothing happens (requests and CPU).
struct PropagationBenchmark {
    let options: BenchmarkOptions
    let endpoint: RemoteEndpoint
    let folder: URL
    let remote: String

    struct Value: Codable, Equatable {
        var round: Int
    }

    func run() async throws -> [String] {
        let serviceA = ObservedService(try endpoint.makeService(root: "automatic"))
        let serviceB = ObservedService(try endpoint.makeService(root: "automatic"))
        let a = try SyncStore(folder: folder.appending(path: "automatic-a"), service: serviceA)
        let b = try SyncStore(folder: folder.appending(path: "automatic-b"), service: serviceB)
        let configuration = AutomaticSyncConfiguration()
        // A sets up the remote folder before B starts: on Drive, two first syncs at once can
        // each create the root folder (Drive allows two folders of one name) and never meet.
        var tasks = [Task { try await a.automaticSync(configuration).run() }]
        defer { for task in tasks { task.cancel() } }
        try await settle(a, a)
        tasks.append(Task { try await b.automaticSync(configuration).run() })
        try await settle(a, b)

        let clock = ContinuousClock()
        var latencies: [Duration] = []
        let cpuBefore = CPUTime.own()
        let started = clock.now
        Self.say("\(remote): timing \(options.propagationChanges) saves from A to B")
        for round in 0..<options.propagationChanges {
            let key = try RecordKey(type: "save", id: "slot-\(round % 20)")
            let changes = b.changes()
            let saved = clock.now
            try a.save(Value(round: round), as: key)
            let arrived = await withTaskGroup(of: Bool.self) { group in
                group.addTask {
                    for await change in changes where change.key == key && change.origin == .remote {
                        if (try? b.record(key)?.decode(Value.self).round) == round { return true }
                    }
                    return false
                }
                group.addTask {
                    try? await Task.sleep(for: .seconds(120))
                    return false
                }
                defer { group.cancelAll() }
                return await group.next() ?? false
            }
            guard arrived else {
                throw BenchmarkFailure("save \(round) did not reach B within 2 minutes: \(a.status); \(b.status)")
            }
            latencies.append(clock.now - saved - configuration.debounce)
            if (round + 1) % 25 == 0 {
                Self.say("\(remote): \(round + 1) of \(options.propagationChanges) saves arrived")
            }
        }
        let activeSeconds = (clock.now - started).seconds
        let activeCPU = CPUTime.own() - cpuBefore

        // Idle: nothing changes; count what the two devices ask the service for, once a
        // polling schedule has stretched to its longest interval (its first polls after the
        // last change are short on purpose).
        try await settle(a, b)
        let waiting = serviceA.capabilities.changeWaiting
        let warmUp = waiting.mechanism == .polling ? waiting.polling.maximum * 2 : .seconds(5)
        Self.say("\(remote): idle for \(warmUp) of warm-up and \(options.idleSeconds) s measured")
        try await Task.sleep(for: warmUp)
        serviceA.resetCounts()
        serviceB.resetCounts()
        let idleCPUBefore = CPUTime.own()
        try await Task.sleep(for: .seconds(options.idleSeconds))
        let idleCPU = CPUTime.own() - idleCPUBefore
        let idleRequests = serviceA.totalCalls + serviceB.totalCalls
        for task in tasks { task.cancel() }
        for task in tasks { _ = try? await task.value }
        Self.say("\(remote): automatic sync stopped")

        let sorted = latencies.sorted()
        let p50 = sorted[sorted.count / 2].seconds
        let p95 = sorted[min(sorted.count - 1, sorted.count * 95 / 100)].seconds
        let worst = sorted[sorted.count - 1].seconds
        let goal: Double
        let goalText: String
        let idleGoal: Double
        switch waiting.mechanism {
        case .notification:
            goal = 0.5
            goalText = "p95 ≤ 0.5 s"
            idleGoal = 0
        case .longPoll:
            goal = 1
            goalText = "p95 ≤ 1 s"
            idleGoal = 2
        case .polling, .unavailable:
            goal = waiting.polling.maximum.seconds + 1
            goalText = "p95 ≤ \(String(format: "%.0f", goal)) s (the longest interval + 1 s)"
            idleGoal = 60 / max(1, waiting.polling.maximum.seconds)
        }
        let minutes = Double(options.idleSeconds) / 60
        let perDevicePerMinute = Double(idleRequests) / 2 / minutes
        let idleCorePercent = idleCPU / Double(options.idleSeconds) * 100
        let verdict = { (met: Bool) in met ? "met" : "not met" }
        return [
            ReportTables.propagation.markdownRow([
                remote, waiting.mechanism.rawValue, "\(options.propagationChanges)", String(format: "%.3f s", p50),
                String(format: "%.3f s", p95), String(format: "%.3f s", worst), "\(goalText): \(verdict(p95 <= goal))",
                String(format: "%.1f", perDevicePerMinute)
                    + " (goal ≤ \(String(format: "%.0f", idleGoal)): \(verdict(perDevicePerMinute <= idleGoal)))",
                String(format: "%.3f", idleCorePercent) + "% (goal < 0.1%: \(verdict(idleCorePercent < 0.1)))",
                "\(FigureText.seconds(activeCPU)) over \(String(format: "%.1f", activeSeconds)) s",
            ])
        ]
    }

    /// Waits until both devices finished a sync and have nothing to push.
    private func settle(_ a: SyncStore, _ b: SyncStore) async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while true {
            let settled = try [a, b].allSatisfy { store in
                guard try store.pendingChangeCount() == 0 else { return false }
                if case .idle(let last) = store.status { return last != nil }
                return false
            }
            if settled { return }
            guard ContinuousClock.now < deadline else {
                throw BenchmarkFailure("the devices did not settle: \(a.status); \(b.status)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Progress on standard error (the tables go to standard output).
    private static func say(_ line: String) {
        StandardError.writeLine(line)
    }
}
