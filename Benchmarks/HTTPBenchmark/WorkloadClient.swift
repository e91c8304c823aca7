import Foundation

/// One Swift HTTP client driven through the three workloads. Each call creates its client,
/// runs the workload, shuts the client down and reports the time all of that took.
protocol WorkloadClient {
    func download(from url: URL, to destination: URL) async throws -> WorkloadReport
    func upload(_ source: URL, to url: URL) async throws -> WorkloadReport
    func get(_ url: URL, count: Int, concurrency: Int) async throws -> WorkloadReport
}
