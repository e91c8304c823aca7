import Foundation
import Hummingbird
import MockSupport
import Stratus
import StratusDrive
import Synchronization
import Testing

/// A resumable session URL on another origin than the upload URL (a proxy rewrote `Location`)
/// is refused: neither content nor the bearer token goes there; a session's `Range` beyond the
/// upload's length is refused instead of trapping.
@Suite struct SessionOriginTests {
    @Test func aSessionOnAnotherPortGetsNeitherTokenNorContent() async throws {
        let received = Mutex<[String]>([])
        let elsewhere = Router()
        elsewhere.on("/**", method: .put) { request, _ -> Response in
            received.withLock { $0.append(request.headers[.authorization] ?? "no authorization") }
            return Response(status: .ok)
        }
        try await MockServer.withRunning(elsewhere) { otherURL in
            let port = try #require(otherURL.port)
            try await MockFixture.withRunning(front: { router in
                router.add(
                    middleware: AnswerRewrite { response in
                        // The proxy: the session URL now names another port.
                        if let location = response.headers[.location], var components = URLComponents(string: location)
                        {
                            components.port = port
                            response.headers[.location] = components.string
                        }
                    })
            }) { fixture in
                let service = try fixture.makeService()
                let error = await #expect(throws: ServiceError.self) {
                    _ = try await service.upload(from: .bytes(Data(count: 100_000)), to: try RemotePath("big.bin"))
                }
                #expect(error?.code == .invalidResponse, "\(String(describing: error))")
                #expect(error?.message.contains("upload session") == true, "\(String(describing: error))")
            }
        }
        #expect(received.withLock { $0 } == [])
    }

    @Test func aRangeBeyondTheUploadIsRefusedNotAddedTo() async throws {
        try await MockFixture.withRunning(front: { router in
            router.add(
                middleware: AnswerRewrite { response in
                    if response.status.code == 308 { response.headers[.range] = "bytes=0-9223372036854775807" }
                })
        }) { fixture in
            let service = try fixture.makeService()
            let error = await #expect(throws: ServiceError.self) {
                _ = try await service.upload(from: .bytes(Data(count: 300_000)), to: try RemotePath("big.bin"))
            }
            #expect(error?.code == .invalidResponse, "\(String(describing: error))")
            #expect(error?.message.contains("9223372036854775807") == true, "\(String(describing: error))")
        }
    }
}

/// A proxy in front of the mock: changes every answer on its way out.
struct AnswerRewrite: RouterMiddleware {
    let rewrite: @Sendable (inout Response) -> Void

    func handle(
        _ request: Request, context: BasicRequestContext,
        next: (Request, BasicRequestContext) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        rewrite(&response)
        return response
    }
}
