import Foundation
import Hummingbird
import MockSupport
import StratusHTTP
import Synchronization
import Testing

/// libcurl resends a request by itself when a reused connection closes before any answer;
/// the client lets it do so only for idempotent requests.
@Suite struct HTTPClientResendTests {
    @Test func requestThatIsNotIdempotentIsNeverResentOnAStaleConnection() async throws {
        let posts = Atomic<Int>(0)
        let injector = FaultInjector(hooks: .init(errorResponse: { _, _ in Response(status: .ok) }, expireTokens: {}))
        let router = Router()
        router.add(middleware: FaultInjectionMiddleware(injector: injector))
        router.get("/warm") { _, _ in "warm" }
        router.post("/write") { _, _ -> String in
            posts.add(1, ordering: .relaxed)
            return "written"
        }
        try await MockServer.withRunning(router) { base in
            let client = try StratusHTTPClient()
            let write = StratusHTTPRequest(
                method: .post, url: base.appending(path: "write"), body: .bytes(Data("x".utf8)))

            // A warm connection, then a POST whose answer is lost: not resent.
            _ = try await client.execute(StratusHTTPRequest(url: base.appending(path: "warm")))
            injector.add(FaultRule(route: "/write", fault: .dropBeforeResponse))
            let error = await #expect(throws: StratusHTTPClientError.self) { try await client.execute(write) }
            #expect(error?.code == .connectionLost)
            #expect(posts.load(ordering: .relaxed) == 1)

            // The same POST marked idempotent: libcurl resends it and the answer arrives.
            _ = try await client.execute(StratusHTTPRequest(url: base.appending(path: "warm")))
            injector.add(FaultRule(route: "/write", fault: .dropBeforeResponse))
            var idempotent = write
            idempotent.isIdempotent = true
            let answer = try? await client.execute(idempotent)
            await client.shutdown()
            #expect(answer?.status == 200)
            #expect(posts.load(ordering: .relaxed) == 3)
        }
    }
}
