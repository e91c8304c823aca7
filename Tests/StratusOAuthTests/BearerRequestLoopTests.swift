import Foundation
import Hummingbird
import MockSupport
import Stratus
import StratusAdapterKit
import StratusHTTP
import StratusOAuth
import StratusTestSupport
import Synchronization
import Testing

/// The request loop every bearer-token adapter's transport runs
/// (`BearerCredentials.send(_:origins:http:into:action:progress:authorizes:retryPolicy:repetition:accepted:failure:)`),
/// against a loopback server that answers from a script.
@Suite struct BearerRequestLoopTests {
    /// What the server saw: each request's `Authorization` header ("" when there was none).
    final class Seen: Sendable {
        private let headers = Mutex<[String]>([])
        func append(_ header: String) { headers.withLock { $0.append(header) } }
        var all: [String] { headers.withLock { $0 } }
    }

    /// Runs `body` with a server whose `/route` answers the statuses in order (the last one
    /// from then on).
    func withServer(
        answering statuses: [Int],
        _ body: @Sendable (_ url: URL, _ http: StratusHTTPClient, _ seen: Seen) async throws -> Void
    ) async throws {
        let seen = Seen()
        let router = Router()
        router.post("route") { request, _ -> Response in
            let index = seen.all.count
            seen.append(request.headers[.authorization] ?? "")
            let status = statuses[min(index, statuses.count - 1)]
            return Response(
                status: HTTPResponse.Status(code: status),
                body: ResponseBody(byteBuffer: ByteBuffer(string: "echo Bearer fixed-SECRET")))
        }
        let http = try StratusHTTPClient(configuration: StratusHTTPClient.Configuration())
        do {
            try await MockServer.withRunning(router) { url in try await body(url, http, seen) }
            await http.shutdown()
        } catch {
            await http.shutdown()
            throw error
        }
    }

    let credentials = BearerCredentials.accessToken("fixed-SECRET")

    /// The error the tests' failure closures name: the status, and the server's text scrubbed.
    @Sendable static func failure(_ response: StratusHTTPResponse, _ secrets: [String]) -> ServiceError? {
        ServiceError(
            ServiceError.Code(httpStatus: response.status),
            "HTTP \(response.status): \(Redaction.serverText(String(decoding: response.body, as: UTF8.self), secrets: secrets))",
            httpStatus: response.status)
    }

    @Test func aSafeRequestIsRepeatedAfterAServerErrorWithTheToken() async throws {
        try await withServer(answering: [503, 200]) { url, http, seen in
            let request = StratusHTTPRequest(method: .post, url: url.appending(path: "route"))
            let response = try await credentials.send(
                { request }, origins: [url], http: http, action: "The test request", retryPolicy: quickRetries,
                repetition: .safe, failure: Self.failure)
            #expect(response.status == 200)
            #expect(seen.all == ["Bearer fixed-SECRET", "Bearer fixed-SECRET"])
        }
    }

    @Test func theMappedErrorIsThrownWithTheSecretsScrubbed() async throws {
        try await withServer(answering: [503]) { url, http, seen in
            let request = StratusHTTPRequest(method: .post, url: url.appending(path: "route"))
            let error = try await #require(throws: ServiceError.self) {
                try await credentials.send(
                    { request }, origins: [url], http: http, action: "The test request", retryPolicy: quickRetries,
                    repetition: .onlyWhenRefused, failure: Self.failure)
            }
            #expect(error.code == .server)
            #expect(!error.message.contains("fixed-SECRET"))
            // A server error may leave a write done: it is not sent again.
            #expect(seen.all.count == 1)
        }
    }

    @Test func acceptedStatusesAndAnswersTheFailureLetStandAreReturned() async throws {
        try await withServer(answering: [308, 409]) { url, http, _ in
            let request = StratusHTTPRequest(method: .post, url: url.appending(path: "route"))
            let resumed = try await credentials.send(
                { request }, origins: [url], http: http, action: "The test request", retryPolicy: quickRetries,
                repetition: .safe, accepted: [308]
            ) { _, _ in
                Issue.record("An accepted status went to the failure closure.")
                return nil
            }
            #expect(resumed.status == 308)
            let routeError = try await credentials.send(
                { request }, origins: [url], http: http, action: "The test request", retryPolicy: quickRetries,
                repetition: .safe
            ) { response, _ in response.status == 409 ? nil : Self.failure(response, []) }
            #expect(routeError.status == 409)
        }
    }

    @Test func aRequestThatCarriesItsOwnCredentialGoesWithoutTheToken() async throws {
        try await withServer(answering: [200]) { url, http, seen in
            let request = StratusHTTPRequest(method: .post, url: url.appending(path: "route"))
            // Not among the origins: only an authorized request is held to them.
            let response = try await credentials.send(
                { request }, origins: [], http: http, action: "The long poll", authorizes: false,
                retryPolicy: quickRetries, repetition: .safe, failure: Self.failure)
            #expect(response.status == 200)
            #expect(seen.all == [""])
        }
    }

    @Test func anAuthorizedRequestToAnotherOriginIsNotSent() async throws {
        try await withServer(answering: [200]) { url, http, seen in
            let request = StratusHTTPRequest(method: .post, url: url.appending(path: "route"))
            let error = try await #require(throws: ServiceError.self) {
                try await credentials.send(
                    { request }, origins: [URL(filePath: "/")], http: http, action: "The test request",
                    retryPolicy: quickRetries, repetition: .safe, failure: Self.failure)
            }
            #expect(error.code == .invalidResponse)
            #expect(seen.all.isEmpty)
        }
    }

    @Test func aRemoteWithoutAStoredSignInIsToldHowToSignInAgain() async throws {
        try await withTemporaryFolder(prefix: "stratus-oauth-tests") { folder in
            let options = RemoteOptions(
                remoteName: "saves", typeName: "drive",
                values: [
                    "client_id": "client", BackendOption.tokenStore.name: folder.appending(path: "token.json").path,
                ])
            let http = try StratusHTTPClient(configuration: StratusHTTPClient.Configuration())
            let credentials = try BearerCredentials.forRemote(options, http: http) { clientID, secret in
                .google(clientID: clientID, clientSecret: secret)
            }
            #expect(credentials.description == "BearerCredentials(provider)")
            let request = StratusHTTPRequest(method: .post, url: URL(filePath: "/route"))
            let error = try await #require(throws: ServiceError.self) {
                try await credentials.send(
                    { request }, origins: [URL(filePath: "/")], http: http, action: "The test request",
                    retryPolicy: quickRetries, repetition: .safe, failure: Self.failure)
            }
            await http.shutdown()
            #expect(error.code == .reauthenticationRequired)
            #expect(error.message.hasSuffix("Sign in to Google again for remote 'saves'."))
        }
    }

    @Test func aRemoteWithAnAccessTokenUsesItAsIs() throws {
        let options = RemoteOptions(
            remoteName: "saves", typeName: "drive", values: [BackendOption.accessToken.name: "fixed"])
        let http = try StratusHTTPClient(configuration: StratusHTTPClient.Configuration())
        let credentials = try BearerCredentials.forRemote(options, http: http) { clientID, secret in
            .google(clientID: clientID, clientSecret: secret)
        }
        #expect(credentials.description == "BearerCredentials(fixed token)")
        #expect(throws: ServiceError.self) {
            try BearerCredentials.forRemote(
                RemoteOptions(remoteName: "saves", typeName: "dropbox", values: ["client_id": "client"]),
                clientIDOption: "app_key", http: http
            ) { clientID, secret in .dropbox(clientID: clientID, clientSecret: secret) }
        }
    }
}
