import Foundation
import Hummingbird
import MockSupport
import StratusHTTP
import Synchronization
import Testing

/// Methods are idempotent only when HTTP says so or the caller declares it.
@Suite struct HTTPMethodIdempotencyTests {
    @Test func idempotencyFollowsRFC9110AndDeclarations() throws {
        for method in [StratusHTTPMethod.get, .head, .put, .delete, .options, StratusHTTPMethod(rawValue: "TRACE")] {
            #expect(method.isIdempotent, "\(method)")
        }
        for method in [
            StratusHTTPMethod.post, .patch, StratusHTTPMethod(rawValue: "MKCOL"), StratusHTTPMethod(rawValue: "get"),
        ] {
            #expect(!method.isIdempotent, "\(method)")
        }
        let propfind = StratusHTTPMethod("PROPFIND", isIdempotent: true)
        #expect(propfind.isIdempotent)
        // Equality is by name: a declaration does not make another method.
        #expect(propfind == StratusHTTPMethod(rawValue: "PROPFIND"))
        #expect(Set([propfind, StratusHTTPMethod(rawValue: "PROPFIND")]).count == 1)
        #expect(StratusHTTPMethod(rawValue: "GET") == .get)

        let url = try #require(URL(string: "https://example.com/folder"))
        #expect(!StratusHTTPRequest(method: StratusHTTPMethod(rawValue: "MKCOL"), url: url).isIdempotent)
        #expect(StratusHTTPRequest(method: propfind, url: url).isIdempotent)
        #expect(StratusHTTPRequest(method: .delete, url: url).isIdempotent)
        #expect(!StratusHTTPRequest(method: .post, url: url).isIdempotent)
    }

    @Test func customMethodWithoutBodyIsNeverResentUnlessDeclared() async throws {
        let calls = Atomic<Int>(0)
        let injector = FaultInjector(hooks: .init(errorResponse: { _, _ in Response(status: .ok) }, expireTokens: {}))
        let router = Router()
        router.add(middleware: FaultInjectionMiddleware(injector: injector))
        router.get("/warm") { _, _ in "warm" }
        let mkcol = try #require(HTTPRequest.Method("MKCOL"))
        router.on("/folder", method: mkcol) { _, _ -> Response in
            calls.add(1, ordering: .relaxed)
            return Response(status: .created)
        }
        try await MockServer.withRunning(router) { base in
            let client = try StratusHTTPClient()
            let warm = StratusHTTPRequest(url: base.appending(path: "warm"))
            let make = StratusHTTPRequest(
                method: StratusHTTPMethod(rawValue: "MKCOL"), url: base.appending(path: "folder"))

            // Undeclared: the lost answer is reported, the request went out once.
            _ = try await client.execute(warm)
            injector.add(FaultRule(route: "/folder", fault: .dropBeforeResponse))
            let error = await #expect(throws: StratusHTTPClientError.self) { try await client.execute(make) }
            #expect(error?.code == .connectionLost)
            #expect(calls.load(ordering: .relaxed) == 1)

            // Declared idempotent: libcurl's own resend on a stale connection is allowed.
            _ = try await client.execute(warm)
            injector.add(FaultRule(route: "/folder", fault: .dropBeforeResponse))
            let declared = StratusHTTPRequest(
                method: StratusHTTPMethod("MKCOL", isIdempotent: true), url: base.appending(path: "folder"))
            let answer = try? await client.execute(declared)
            await client.shutdown()
            #expect(answer?.status == 201)
            #expect(calls.load(ordering: .relaxed) == 3)
        }
    }
}
