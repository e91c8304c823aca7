import BenchmarkSupport
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The workloads over Foundation's `URLSession` (FoundationNetworking on Linux), one session per
/// workload with caching off.
struct URLSessionWorkloads: WorkloadClient {
    func download(from url: URL, to destination: URL) async throws -> WorkloadReport {
        let start = ContinuousClock.now
        let session = makeSession(connectionsPerHost: 1)
        let (temporary, response) = try await session.download(from: url)
        try checkSuccess(response, "GET \(url)")
        try FileManager.default.moveItem(at: temporary, to: destination)
        session.finishTasksAndInvalidate()
        let seconds = (ContinuousClock.now - start).seconds
        let size = (try FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? NSNumber)?.int64Value
        return WorkloadReport(seconds: seconds, bytes: size ?? 0, requests: 1)
    }

    func upload(_ source: URL, to url: URL) async throws -> WorkloadReport {
        let start = ContinuousClock.now
        let session = makeSession(connectionsPerHost: 1)
        var request = URLRequest(url: url)
        request.httpMethod = "PUT"
        let (body, response) = try await session.upload(for: request, fromFile: source)
        try checkSuccess(response, "PUT \(url)")
        session.finishTasksAndInvalidate()
        let seconds = (ContinuousClock.now - start).seconds
        guard let received = Int64(String(decoding: body, as: UTF8.self)) else {
            throw BenchmarkFailure("the server's answer to the upload is not a byte count")
        }
        return WorkloadReport(seconds: seconds, bytes: received, requests: 1)
    }

    func get(_ url: URL, count: Int, concurrency: Int) async throws -> WorkloadReport {
        let start = ContinuousClock.now
        let session = makeSession(connectionsPerHost: concurrency)
        let tickets = RequestTickets(count: count)
        let bytes = try await withThrowingTaskGroup(of: Int64.self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    var received: Int64 = 0
                    while tickets.take() != nil {
                        let (body, response) = try await session.data(from: url)
                        try checkSuccess(response, "GET \(url)")
                        received += Int64(body.count)
                    }
                    return received
                }
            }
            return try await group.reduce(0, +)
        }
        session.finishTasksAndInvalidate()
        let seconds = (ContinuousClock.now - start).seconds
        return WorkloadReport(seconds: seconds, bytes: bytes, requests: count)
    }

    private func makeSession(connectionsPerHost: Int) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpMaximumConnectionsPerHost = connectionsPerHost
        return URLSession(configuration: configuration)
    }

    private func checkSuccess(_ response: URLResponse, _ request: String) throws {
        guard let status = (response as? HTTPURLResponse)?.statusCode, (200..<300).contains(status) else {
            throw BenchmarkFailure("\(request) did not answer 2xx: \(response)")
        }
    }
}
