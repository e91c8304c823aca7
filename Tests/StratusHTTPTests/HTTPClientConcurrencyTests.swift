import Foundation
import StratusHTTP
import StratusTestSupport
import Testing

@Suite struct HTTPClientConcurrencyTests {
    @Test func twoHundredConcurrentRequestsOnOneClientUseNoExtraThreads() async throws {
        try await TestServer.with(EchoRoutes.router()) { base in
            // A thread name of this test's own: the count below is of this client's threads
            // (its transfer thread and any thread libcurl starts from it), not of the whole
            // process, where tests running beside this one start and stop threads of their own.
            var configuration = StratusHTTPClient.Configuration()
            let name = "st." + String(UUID().uuidString.prefix(12)).lowercased()
            configuration.threadName = name
            let client = try StratusHTTPClient(configuration: configuration)
            _ = try await client.execute(StratusHTTPRequest(url: base.appending(path: "hello")))
            #expect(try threadCount(named: name) == 1, "the client runs one transfer thread")
            let peak = ProgressLog()
            let bodies = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<200 {
                    group.addTask {
                        let response = try await client.execute(
                            StratusHTTPRequest(url: base.appending(path: "bytes/\(1000 + index)")))
                        peak.add(Int64(try threadCount(named: name)))
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
            // One transfer thread for all 200 requests; a thread per request would show 200.
            #expect((peak.values.max() ?? 0) == 1)
        }
    }
}

/// The number of this process's threads with a name, from /proc (Linux keeps 15 bytes of it).
func threadCount(named name: String) throws -> Int {
    let wanted = String(decoding: name.utf8.prefix(15), as: UTF8.self)
    let threads = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")
    return threads.filter { thread in
        let comm = (try? String(contentsOfFile: "/proc/self/task/\(thread)/comm", encoding: .utf8)) ?? ""
        return comm.trimmingCharacters(in: .newlines) == wanted
    }.count
}
