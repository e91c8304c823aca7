import Foundation
import StratusHTTP
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct HTTPClientFailureTests {
    @Test func connectionRefused() async throws {
        let port = try unusedPort()
        let client = try StratusHTTPClient()
        let error = await #expect(throws: StratusHTTPClientError.self) {
            try await client.execute(StratusHTTPRequest(url: URL(string: "http://127.0.0.1:\(port)/")!))
        }
        await client.shutdown()
        #expect(error?.code == .connectionRefused)
        #expect(error?.curlCode == 7)
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

/// A loopback port nothing listens on: bound by the OS, then released.
func unusedPort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
        }
    }
    guard bound else { throw TestServerError.noPort }
    return Int(UInt16(bigEndian: address.sin_port))
}
