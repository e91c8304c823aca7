import Foundation
import Hummingbird
import MockSupport
import StratusHTTP
import Testing

@Suite("Mock server lifecycle")
struct MockServerTests {
    static func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/hello") { _, _ in Response.text("hello", status: .ok) }
        router.post("/upload") { request, _ -> Response in
            var request = request
            let body = try await request.readBody(limit: 1024)
            return Response.text("\(body.readableBytes)", status: .ok)
        }
        return router
    }

    @Test("withRunning starts and stops cleanly twice in a row, and the port closes")
    func twice() async throws {
        let client = try StratusHTTPClient(configuration: .init(timeouts: .init(connect: .seconds(2))))
        for _ in 0..<2 {
            let url = try await MockServer.withRunning(Self.router()) { url in
                #expect(url.scheme == "http")
                #expect(url.host == "127.0.0.1")
                #expect((url.port ?? 0) > 0)
                let response = try await client.execute(StratusHTTPRequest(url: url.appendingPathComponent("hello")))
                #expect(response.status == 200)
                #expect(String(decoding: response.body, as: UTF8.self) == "hello")
                return url
            }
            await #expect(throws: StratusHTTPClientError.self) {
                _ = try await client.execute(StratusHTTPRequest(url: url.appendingPathComponent("hello")))
            }
        }
        await client.shutdown()
    }

    /// The client waits up to five minutes for the interim answer before it sends the body
    /// anyway, so a mock that never sent `100 Continue` would run into the time limit.
    @Test(
        "A body sent with Expect: 100-continue is continued at once, not after the client's wait",
        .timeLimit(.minutes(2)))
    func continuesAtOnce() async throws {
        let configuration = StratusHTTPClient.Configuration(
            timeouts: .init(connect: .seconds(10), stall: .seconds(900)),
            expectContinueThreshold: 16,
            expectContinueTimeout: .seconds(300)
        )
        let client = try StratusHTTPClient(configuration: configuration)
        try await MockServer.withRunning(Self.router()) { url in
            let body = Data(repeating: 7, count: 1000)
            let response = try await client.execute(
                StratusHTTPRequest(method: .post, url: url.appendingPathComponent("upload"), body: .bytes(body))
            )
            #expect(response.status == 200)
            #expect(String(decoding: response.body, as: UTF8.self) == "1000")
        }
        await client.shutdown()
    }

    @Test("run serves until its task is cancelled, then shuts down gracefully")
    func runUntilCancelled() async throws {
        let (announcements, announcer) = AsyncStream<URL>.makeStream()
        let serving = Task {
            try await MockServer.run(Self.router()) { url in announcer.yield(url) }
        }
        var iterator = announcements.makeAsyncIterator()
        let url = try #require(await iterator.next())
        let client = try StratusHTTPClient(configuration: .init(timeouts: .init(connect: .seconds(2))))
        let response = try await client.execute(StratusHTTPRequest(url: url.appendingPathComponent("hello")))
        #expect(response.status == 200)
        serving.cancel()
        try await serving.value
        await #expect(throws: StratusHTTPClientError.self) {
            _ = try await client.execute(StratusHTTPRequest(url: url.appendingPathComponent("hello")))
        }
        await client.shutdown()
    }

    @Test("An error thrown by the body comes out after the server stopped")
    func bodyError() async throws {
        struct Expected: Error {}
        await #expect(throws: Expected.self) {
            try await MockServer.withRunning(Self.router()) { _ in throw Expected() }
        }
    }

    @Test("Bodies beyond the limit are refused with 413, before or while reading")
    func bodyLimit() async throws {
        let client = try StratusHTTPClient()
        try await MockServer.withRunning(Self.router()) { url in
            let upload = url.appendingPathComponent("upload")
            let small = try await client.execute(
                StratusHTTPRequest(method: .post, url: upload, body: .bytes(Data(count: 1024))))
            #expect(small.status == 200)
            #expect(String(decoding: small.body, as: UTF8.self) == "1024")
            let large = try await client.execute(
                StratusHTTPRequest(method: .post, url: upload, body: .bytes(Data(count: 1025))))
            #expect(large.status == 413)
            let chunks = AsyncThrowingStream<Data, any Error> { continuation in
                for _ in 0..<4 { continuation.yield(Data(count: 512)) }
                continuation.finish()
            }
            let streamed = try await client.execute(
                StratusHTTPRequest(method: .post, url: upload, body: .stream(chunks, length: nil)))
            #expect(streamed.status == 413)
        }
        await client.shutdown()
    }
}
