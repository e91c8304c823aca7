import Foundation
import StratusHTTP
import StratusTestSupport
import Testing

@Suite struct HTTPClientConcurrencyTests {
    @Test func twoHundredConcurrentRequestsOnOneClientUseNoExtraThreads() async throws {
        try await TestServer.with(EchoRoutes.router()) { base in
            let client = try StratusHTTPClient()
            _ = try await client.execute(StratusHTTPRequest(url: base.appending(path: "hello")))
            let threadsBefore = try threadCount()
            let peak = ProgressLog()
            let bodies = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<200 {
                    group.addTask {
                        let response = try await client.execute(
                            StratusHTTPRequest(url: base.appending(path: "bytes/\(1000 + index)")))
                        peak.add(Int64(try threadCount()))
                        #expect(response.body == TestServer.content(1000 + index))
                        return response.body.count
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            await client.shutdown()
            #expect(bodies.count == 200)
            let expectedTotal: Int = (0..<200).reduce(0) { $0 + 1000 + $1 }
            #expect(bodies.reduce(0, +) == expectedTotal)
            // The client adds one thread; the test's own tasks run on the fixed-size pool. The
            // count is the whole process's, and tests running beside this one (servers started
            // as child processes among them) add a few threads of their own: a thread per
            // request would add 200.
            #expect((peak.values.max() ?? 0) <= Int64(threadsBefore + 32))
        }
    }
}

/// The number of threads in this process, from /proc.
func threadCount() throws -> Int {
    let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
    let line = status.split(separator: "\n").first { $0.hasPrefix("Threads:") }
    return Int(line?.split(separator: "\t").last ?? "") ?? 0
}
