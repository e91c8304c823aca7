import Foundation
import MockSupport
import Stratus
import Synchronization

/// A load run: many clients against one mock at once, each doing a mix of operations in a
/// folder of its own, with a share of requests failed on purpose; every call must succeed
/// (the adapter retries the injected failures) and latencies are summarized.
public enum LoadRun {
    /// What one run measured.
    public struct Report: Sendable {
        /// Calls per operation.
        public var calls: [String: Int]
        /// Latencies per operation, in seconds, sorted.
        public var latencies: [String: [Double]]
        /// Calls that failed, with their errors (at most 20 kept).
        public var failures: [String]
        /// How many failures were injected by the mock.
        public var injected: Int
        /// How long the run took.
        public var duration: Duration

        /// A Markdown table: calls, p50, p90, p99 and the slowest per operation.
        public var table: String {
            var lines = ["| operation | calls | p50 ms | p90 ms | p99 ms | max ms |", "|---|---|---|---|---|---|"]
            for name in calls.keys.sorted() {
                let sorted = latencies[name] ?? []
                func percentile(_ p: Double) -> String {
                    guard !sorted.isEmpty else { return "—" }
                    let index = min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)
                    return String(format: "%.1f", sorted[max(0, index)] * 1000)
                }
                lines.append(
                    "| \(name) | \(calls[name] ?? 0) | \(percentile(0.5)) | \(percentile(0.9)) | \(percentile(0.99)) | \(percentile(1.0)) |"
                )
            }
            return lines.joined(separator: "\n")
        }
    }

    /// Runs `clients` clients for `duration` against a fresh mock of a provider, with
    /// `faultShare` of the operations' requests answered 503 once.
    public static func run(provider: some MatrixProvider, clients: Int, duration: Duration, faultShare: Double)
        async throws -> Report
    {
        let report = Recorder()
        try await provider.withHarness { harness in
            harness.faults.add(FaultRule(route: "*", times: 0, probability: faultShare, seed: 42, fault: .status(503)))
            let clock = ContinuousClock()
            let start = clock.now
            let deadline = start + duration
            await withTaskGroup(of: Void.self) { group in
                for client in 0..<clients {
                    group.addTask {
                        await runClient(client, harness: harness, until: deadline, report: report)
                    }
                }
            }
            let elapsed = clock.now - start
            let injected = harness.faults.injectedCount
            report.state.withLock {
                $0.duration = elapsed
                $0.injected = injected
            }
        }
        return report.state.withLock { report in
            var sorted = report
            for (name, values) in sorted.latencies { sorted.latencies[name] = values.sorted() }
            return sorted
        }
    }

    private static func runClient(
        _ client: Int, harness: MatrixHarness, until deadline: ContinuousClock.Instant, report: Recorder
    ) async {
        let service = harness.service
        let folder = FileManager.default.temporaryDirectory.appending(path: "stratus-load-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var round = 0
        while ContinuousClock.now < deadline {
            round += 1
            guard let path = try? RemotePath("load/client-\(client)/file-\(round % 4).bin") else { return }
            let content = Data(repeating: UInt8(truncatingIfNeeded: client &+ round), count: 4096)
            let destination = folder.appending(path: "download.bin")
            var token: ChangeToken?
            let steps: [(String, () async throws -> Void)] = [
                ("latestChangeToken", { token = try await service.latestChangeToken() }),
                ("upload", { _ = try await service.upload(from: .bytes(content), to: path, options: UploadOptions()) }),
                ("metadata", { _ = try await service.metadata(of: path) }),
                (
                    "download",
                    { _ = try await service.download(path, version: nil, to: destination, options: DownloadOptions()) }
                ),
                ("list", { _ = try await service.list(try RemotePath("load/client-\(client)")) }),
                ("versions", { _ = try await service.versions(of: path) }),
                ("changes", { if let token { _ = try await service.changes(since: token) } }),
            ]
            for (name, step) in steps {
                let started = ContinuousClock.now
                do {
                    try await step()
                    let seconds = (ContinuousClock.now - started) / .seconds(1)
                    report.state.withLock {
                        $0.calls[name, default: 0] += 1
                        $0.latencies[name, default: []].append(seconds)
                    }
                } catch {
                    report.state.withLock {
                        $0.calls[name, default: 0] += 1
                        if $0.failures.count < 20 {
                            $0.failures.append("\(name) by client \(client): \(error)")
                        } else {
                            $0.failures.append("")
                        }
                    }
                }
            }
        }
    }
}

/// The report of a run in progress, shared by its clients.
private final class Recorder: Sendable {
    let state = Mutex(LoadRun.Report(calls: [:], latencies: [:], failures: [], injected: 0, duration: .zero))
}
