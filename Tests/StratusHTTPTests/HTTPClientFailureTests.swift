import Foundation
import StratusHTTP
import StratusTestSupport
import Testing

@Suite struct HTTPClientFailureTests {
    @Test func connectionRefused() async throws {
        try await withRefusingPort { port in
            let client = try StratusHTTPClient()
            let error = await #expect(throws: StratusHTTPClientError.self) {
                try await client.execute(StratusHTTPRequest(url: URL(string: "http://127.0.0.1:\(port)/")!))
            }
            await client.shutdown()
            #expect(error?.code == .connectionRefused)
            #expect(error?.curlCode == 7)
        }
    }

    @Test func bodyOverTheMemoryCapFails() async throws {
        try await TestServer.with(EchoRoutes.router()) { base in
            let client = try StratusHTTPClient()
            let error = await #expect(throws: StratusHTTPClientError.self) {
                try await client.execute(
                    StratusHTTPRequest(url: base.appending(path: "bytes/100000")), into: .memory(limit: 1024))
            }
            await client.shutdown()
            #expect(error?.code == .bodyTooLarge)
        }
    }

    @Test func onlyHTTPSchemesAreAllowed() async throws {
        let client = try StratusHTTPClient()
        let error = await #expect(throws: StratusHTTPClientError.self) {
            try await client.execute(StratusHTTPRequest(url: URL(string: "file:///etc/passwd")!))
        }
        await client.shutdown()
        #expect(error?.code == .invalidRequest)
    }

    @Test func shutdownFailsRunningAndLaterRequests() async throws {
        try await TestServer.with(EchoRoutes.router()) { base in
            let client = try StratusHTTPClient()
            let running = Task { try await client.execute(StratusHTTPRequest(url: base.appending(path: "stall"))) }
            try await Task.sleep(for: .milliseconds(200))
            await client.shutdown()
            let result = await running.result
            guard case .failure(let error as StratusHTTPClientError) = result else {
                Issue.record("expected shutDown, got \(result)")
                return
            }
            #expect(error.code == .shutDown)
            let later = await #expect(throws: StratusHTTPClientError.self) {
                try await client.execute(StratusHTTPRequest(url: base.appending(path: "hello")))
            }
            #expect(later?.code == .shutDown)
        }
    }
}
