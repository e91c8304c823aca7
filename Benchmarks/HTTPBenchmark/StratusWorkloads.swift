import BenchmarkSupport
import Foundation
import StratusHTTP

/// The workloads over StratusHTTP's `StratusHTTPClient`, with its default configuration (uploads
/// without `Expect: 100-continue`, like the curl tool's).
struct StratusWorkloads: WorkloadClient {
    func download(from url: URL, to destination: URL) async throws -> WorkloadReport {
        let start = ContinuousClock.now
        let client = try StratusHTTPClient()
        let response = try await execute(
            client, StratusHTTPRequest(url: url, responseDigests: [.sha256]), into: .unverifiedFile(destination))
        await client.shutdown()
        let seconds = (ContinuousClock.now - start).seconds
        return WorkloadReport(
            seconds: seconds, bytes: response.bodyLength, requests: 1, sha256: response.bodyDigests[.sha256])
    }

    func upload(_ source: URL, to url: URL) async throws -> WorkloadReport {
        let start = ContinuousClock.now
        // The benchmark server never answers `100 Continue`: without the field, as the curl tool.
        let client = try StratusHTTPClient(configuration: .init(expectContinueThreshold: nil))
        let request = StratusHTTPRequest(method: .put, url: url, body: .file(source))
        let response = try await execute(client, request, into: .memory(limit: 1024))
        await client.shutdown()
        let seconds = (ContinuousClock.now - start).seconds
        guard let received = Int64(String(decoding: response.body, as: UTF8.self)) else {
            throw BenchmarkFailure("the server's answer to the upload is not a byte count")
        }
        return WorkloadReport(seconds: seconds, bytes: received, requests: 1)
    }

    func get(_ url: URL, count: Int, concurrency: Int) async throws -> WorkloadReport {
        let start = ContinuousClock.now
        let client = try StratusHTTPClient()
        let tickets = RequestTickets(count: count)
        let bytes = try await withThrowingTaskGroup(of: Int64.self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    var received: Int64 = 0
                    while tickets.take() != nil {
                        let response = try await execute(
                            client, StratusHTTPRequest(url: url), into: .memory(limit: 1 << 20))
                        received += Int64(response.body.count)
                    }
                    return received
                }
            }
            return try await group.reduce(0, +)
        }
        await client.shutdown()
        let seconds = (ContinuousClock.now - start).seconds
        return WorkloadReport(seconds: seconds, bytes: bytes, requests: count)
    }

    /// Sends a request and insists on a 2xx answer.
    private func execute(
        _ client: StratusHTTPClient, _ request: StratusHTTPRequest, into destination: HTTPResponseDestination
    ) async throws -> StratusHTTPResponse {
        let response = try await client.execute(request, into: destination)
        guard response.isSuccess else {
            throw BenchmarkFailure("\(request) answered \(response.status)")
        }
        return response
    }
}
