import Foundation
import Hummingbird
import MockSupport
import Stratus
import StratusDrive
import Synchronization
import Testing

/// A Drive server whose `nextPageToken`s go round in a circle (A, B, A, ...): the adapter stops
/// each listing with a typed error instead of following it for ever. Before, it stopped only on
/// a token equal to the one it had just sent, so the circle was followed until the server gave
/// up.
@Suite struct HostileDriveTests {
    /// Counts the requests the server answered.
    final class Counter: Sendable {
        let value = Mutex(0)
        var count: Int { value.withLock { $0 } }
    }

    /// Answers every `files.list` and `revisions.list` with an empty page whose next token
    /// alternates, and every other request with a file; counts the requests, and answers 400
    /// past 200 of them, so a looping adapter fails its test instead of hanging it.
    static func withCyclingServer(_ body: @Sendable (DriveService, Counter) async throws -> Void) async throws {
        let requests = Counter()
        let router = Router()
        router.get("/**") { request, _ -> Response in
            let count = requests.value.withLock { count in
                count += 1
                return count
            }
            guard count <= 200 else { return Response(status: .badRequest) }
            let path = request.uri.path
            let text: String
            if path.hasSuffix("/drive/v3/files") || path.hasSuffix("/revisions") {
                let next = request.uri.queryParameters["pageToken"].map(String.init) == "A" ? "B" : "A"
                text = #"{"nextPageToken":"\#(next)","\#(path.hasSuffix("/revisions") ? "revisions" : "files")":[]}"#
            } else {
                text = #"{"id":"F","name":"f.json","mimeType":"application/octet-stream","parents":["appDataFolder"]}"#
            }
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
        }
        try await MockServer.withRunning(router) { baseURL in
            let service = try DriveService(
                configuration: DriveConfiguration(
                    apiURL: baseURL, uploadURL: baseURL,
                    retryPolicy: RetryPolicy(maximumAttempts: 2, initialDelay: .milliseconds(10))),
                credentials: .accessToken("token-not-a-secret"))
            try await body(service, requests)
        }
    }

    @Test func aCircleOfPageTokensEndsTheListingWithATypedError() async throws {
        try await Self.withCyclingServer { service, requests in
            let error = await #expect(throws: ServiceError.self) { try await service.list(RemotePath("")) }
            #expect(error?.code == .invalidResponse, "\(String(describing: error))")
            #expect(requests.count <= 5, "the circle was followed \(requests.count) times")
        }
    }
}
