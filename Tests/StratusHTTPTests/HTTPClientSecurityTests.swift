import Foundation
import Hummingbird
import InMemoryLogging
import Logging
import MockSupport
import NIOSSL
import StratusHTTP
import StratusTestSupport
import Testing

@Suite struct HTTPClientSecurityTests {
    @Test func trustedCertificateWorksAndUntrustedFails() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-http")
        defer { folder.remove() }
        let certificates = try await MockCertificates.create(in: folder.url)
        let certificate = certificates.caCertificate
        let tls = try certificates.serverConfiguration()
        try await TestServer.with(EchoRoutes.router(), tls: tls) { base in
            let trustingFile = try StratusHTTPClient(configuration: .init(trustRoots: .caFile(certificate)))
            let viaFile = try await trustingFile.execute(StratusHTTPRequest(url: base.appending(path: "hello")))
            await trustingFile.shutdown()
            #expect(String(decoding: viaFile.body, as: UTF8.self) == "hello")

            let trustingPEM = try StratusHTTPClient(
                configuration: .init(trustRoots: .caPEM(try Data(contentsOf: certificate))))
            let viaPEM = try await trustingPEM.execute(StratusHTTPRequest(url: base.appending(path: "hello")))
            await trustingPEM.shutdown()
            #expect(viaPEM.status == 200)

            let untrusting = try StratusHTTPClient()
            let error = await #expect(throws: StratusHTTPClientError.self) {
                try await untrusting.execute(StratusHTTPRequest(url: base.appending(path: "hello")))
            }
            await untrusting.shutdown()
            #expect(error?.code == .tls)
        }
    }

    @Test func redirectsAreNotFollowedUnlessAsked() async throws {
        let router = EchoRoutes.router()
        router.get("/moved") { _, _ in Response(status: .found, headers: [.location: "/hello"]) }
        try await TestServer.with(router) { base in
            let plain = try StratusHTTPClient()
            let unfollowed = try await plain.execute(StratusHTTPRequest(url: base.appending(path: "moved")))
            await plain.shutdown()
            #expect(unfollowed.status == 302)
            #expect(unfollowed.headers["location"] == "/hello")

            let following = try StratusHTTPClient(configuration: .init(redirects: .follow(maximum: 3)))
            let followed = try await following.execute(StratusHTTPRequest(url: base.appending(path: "moved")))
            await following.shutdown()
            #expect(followed.status == 200)
            #expect(String(decoding: followed.body, as: UTF8.self) == "hello")
        }
    }

    @Test func authorizationNeverFollowsARedirectToAnotherHost() async throws {
        try await TestServer.with(EchoRoutes.router()) { other in
            let router = Router()
            router.get("/away") { _, _ in
                Response(status: .found, headers: [.location: other.appending(path: "headers").absoluteString])
            }
            router.get("/here") { _, _ in Response(status: .found, headers: [.location: "/headers"]) }
            router.get("/headers") { request, _ -> String in
                request.headers[.authorization] ?? "none"
            }
            try await TestServer.with(router) { base in
                let client = try StratusHTTPClient(configuration: .init(redirects: .follow(maximum: 3)))
                let headers: StratusHTTPHeaders = ["Authorization": "Bearer sl.secret-access-token"]
                let away = try await client.execute(
                    StratusHTTPRequest(url: base.appending(path: "away"), headers: headers))
                let here = try await client.execute(
                    StratusHTTPRequest(url: base.appending(path: "here"), headers: headers))
                await client.shutdown()
                #expect(!String(decoding: away.body, as: UTF8.self).contains("secret-access-token"))
                #expect(String(decoding: here.body, as: UTF8.self) == "Bearer sl.secret-access-token")
            }
        }
    }

    @Test func descriptionsRedactSecrets() throws {
        let headers: StratusHTTPHeaders = [
            "Authorization": "Bearer sl.abc123", "Dropbox-API-Arg": "{\"path\":\"/a\"}", "Cookie": "session=xyz",
        ]
        #expect(headers.description.contains("Authorization: Bearer <redacted>"))
        #expect(!headers.description.contains("abc123"))
        #expect(!headers.description.contains("xyz"))
        #expect(headers.description.contains("{\"path\":\"/a\"}"))
        let url = URL(
            string:
                "https://user:pw@example.com/token?grant_type=refresh_token&refresh_token=r-secret&client_secret=c-secret&alt=media"
        )!
        let request = StratusHTTPRequest(method: .post, url: url, headers: headers)
        #expect(!request.description.contains("r-secret"))
        #expect(!request.description.contains("c-secret"))
        #expect(!request.description.contains("pw@"))
        #expect(request.description.contains("alt=media"))
        #expect(request.description.contains("grant_type=refresh_token"))
    }

    @Test func traceLogsCarryNoSecrets() async throws {
        let logs = InMemoryLogHandler()
        var logger = Logger(label: "test", factory: { _ in logs })
        logger.logLevel = .trace
        let verboseLogger = logger
        try await TestServer.with(EchoRoutes.router()) { base in
            let client = try StratusHTTPClient(configuration: .init(logger: verboseLogger))
            var url = base.appending(path: "hello")
            url.append(queryItems: [URLQueryItem(name: "access_token", value: "q-secret")])
            _ = try await client.execute(StratusHTTPRequest(url: url, headers: ["Authorization": "Bearer h-secret"]))
            _ = try? await client.execute(
                StratusHTTPRequest(url: base.appending(path: "stall"), headers: ["Authorization": "Bearer h-secret"])
                    .withTimeout(.milliseconds(100)))
            await client.shutdown()
        }
        let text = logs.entries.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
        #expect(!text.isEmpty)
        #expect(!text.contains("q-secret"))
        #expect(!text.contains("h-secret"))
    }
}

extension StratusHTTPRequest {
    func withTimeout(_ duration: Duration) -> StratusHTTPRequest {
        var copy = self
        copy.totalTimeout = duration
        return copy
    }
}
