import Foundation
import Hummingbird
import NIOCore
import StratusHTTP
import Synchronization
import Testing

/// `Expect: 100-continue` above the configured body size, and no `Expect` below it.
@Suite struct HTTPClientExpectContinueTests {
    /// `PUT /refuse` answers 409 at once without reading the body; `PUT /accept` reads the body
    /// and answers with the byte count and the `Expect` header it saw.
    static func router(received: ReceivedBytes) -> Router<BasicRequestContext> {
        let router = Router()
        router.put("/refuse") { _, _ -> Response in
            Response(status: .conflict, body: ResponseBody(byteBuffer: ByteBuffer(string: "no such folder")))
        }
        router.put("/accept") { request, _ -> String in
            var count = 0
            for try await buffer in request.body {
                count += buffer.readableBytes
                received.add(buffer.readableBytes)
            }
            return "\(count) expect=\(request.headers[.expect] ?? "none")"
        }
        return router
    }

    /// The body bytes the server read.
    final class ReceivedBytes: Sendable {
        private let count = Atomic<Int>(0)
        func add(_ bytes: Int) { count.add(bytes, ordering: .relaxed) }
        var value: Int { count.load(ordering: .relaxed) }
    }

    /// The most body bytes a request reported sending.
    final class SentBytes: Sendable {
        private let most = Atomic<Int64>(0)
        func record(_ progress: HTTPProgress) { most.max(progress.bytesSent, ordering: .relaxed) }
        var value: Int64 { most.load(ordering: .relaxed) }
    }

    @Test func largeBodyRefusedEarlyIsNotUploaded() async throws {
        let received = ReceivedBytes()
        let body = TestServer.content(64 * 1024 * 1024)
        try await TestServer.with(Self.router(received: received)) { base in
            // A wait for `100 Continue` far longer than the answer can take, even on a loaded
            // machine: the body goes out only if the server asks for it, which this one never does.
            let client = try StratusHTTPClient(
                configuration: .init(timeouts: .init(stall: .seconds(120)), expectContinueTimeout: .seconds(50)))
            let sent = SentBytes()
            let started = ContinuousClock.now
            let response = try await client.execute(
                StratusHTTPRequest(method: .put, url: base.appending(path: "refuse"), body: .bytes(body)),
                progress: { sent.record($0) }
            )
            let elapsed = ContinuousClock.now - started
            await client.shutdown()
            #expect(response.status == 409)
            #expect(String(decoding: response.body, as: UTF8.self) == "no such folder")
            // The server's answer came before the body: not one body byte went out.
            #expect(sent.value == 0)
            // The answer ended the wait, not the timeout.
            #expect(elapsed < .seconds(45))
        }
    }

    @Test func withoutTheFieldTheBodyStartsAtOnce() async throws {
        // The comparison that shows what the field saves: with it turned off, the refused
        // body is on its way before the answer arrives.
        let received = ReceivedBytes()
        let body = TestServer.content(64 * 1024 * 1024)
        try await TestServer.with(Self.router(received: received)) { base in
            let client = try StratusHTTPClient(configuration: .init(expectContinueThreshold: nil))
            let sent = SentBytes()
            let response = try? await client.execute(
                StratusHTTPRequest(method: .put, url: base.appending(path: "refuse"), body: .bytes(body)),
                progress: { sent.record($0) }
            )
            await client.shutdown()
            // libcurl stops sending on the error answer (or the server closes on it): either way
            // bytes went out first.
            #expect(response == nil || response?.status == 409)
            #expect(sent.value > 0)
        }
    }

    @Test func smallBodySendsNoExpectAndLargeBodyWaitsAtMostTheTimeout() async throws {
        let received = ReceivedBytes()
        try await TestServer.with(Self.router(received: received)) { base in
            let client = try StratusHTTPClient(
                configuration: .init(expectContinueThreshold: 4096, expectContinueTimeout: .milliseconds(200)))
            let small = try await client.execute(
                StratusHTTPRequest(
                    method: .put, url: base.appending(path: "accept"), body: .bytes(TestServer.content(4095)))
            )
            #expect(String(decoding: small.body, as: UTF8.self) == "4095 expect=none")

            // The test server never sends 100 Continue: the body goes after the wait, whole.
            let started = ContinuousClock.now
            let large = try await client.execute(
                StratusHTTPRequest(
                    method: .put, url: base.appending(path: "accept"), body: .bytes(TestServer.content(4096)))
            )
            let elapsed = ContinuousClock.now - started
            await client.shutdown()
            #expect(String(decoding: large.body, as: UTF8.self) == "4096 expect=100-continue")
            #expect(elapsed >= .milliseconds(150))
            #expect(received.value == 4095 + 4096)
        }
    }

    @Test func defaultsAreDocumented() {
        let configuration = StratusHTTPClient.Configuration()
        #expect(configuration.expectContinueThreshold == Int64(1_048_576))
        #expect(configuration.expectContinueTimeout == .seconds(1))
    }
}
