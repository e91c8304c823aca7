import Foundation
import Hummingbird
import MockSupport
import Stratus
import StratusHTTP
import StratusOAuth
import Synchronization
import Testing

/// The bearer token goes only to the configured origins: a request for any other scheme, host
/// or port is refused before it leaves, whatever named it.
@Suite struct CredentialOriginTests {
    @Test func aRequestForAnotherOriginIsNotSent() async throws {
        let seen = Mutex<[String]>([])
        let router = Router()
        router.get("/**") { request, _ -> Response in
            seen.withLock { $0.append(request.headers[.authorization] ?? "none") }
            return Response(status: .ok)
        }
        let http = try StratusHTTPClient()
        try await MockServer.withRunning(router) { other in
            let configured = try #require(URL(string: "http://127.0.0.1:9/"))
            let credentials = BearerCredentials.accessToken("token-for-configured-host")
            let error = await #expect(throws: ServiceError.self) {
                _ = try await credentials.send(
                    { StratusHTTPRequest(url: other.appending(path: "steal")) },
                    origins: [configured], http: http, into: .memory(limit: 1024), action: "The test request",
                    progress: nil
                )
            }
            #expect(error?.code == .invalidResponse, "\(String(describing: error))")
            // Same host, same port, other scheme: another origin too.
            let otherScheme = try #require(
                URL(string: other.absoluteString.replacingOccurrences(of: "http://", with: "https://")))
            await #expect(throws: ServiceError.self) {
                _ = try await credentials.send(
                    { StratusHTTPRequest(url: other.appending(path: "steal")) },
                    origins: [otherScheme], http: http, into: .memory(limit: 1024), action: "The test request",
                    progress: nil
                )
            }
            // The configured origin itself is served.
            let served = try await credentials.send(
                { StratusHTTPRequest(url: other.appending(path: "fine")) },
                origins: [other], http: http, into: .memory(limit: 1024), action: "The test request", progress: nil
            )
            #expect(served.status == 200)
        }
        await http.shutdown()
        #expect(seen.withLock { $0 } == ["Bearer token-for-configured-host"])
    }
}
