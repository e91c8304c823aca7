import Foundation
import MockProviders
import MockSupport
import Stratus
import StratusTestSupport
import Testing

@testable import StratusDropbox

/// What a route of the mock Dropbox refused with 429 for good costs each operation that needs
/// it (see ``RateLimitedRoute``), writes of unknown outcome included.
@Suite struct PersistentRateLimitTests {
    /// Each route with how the service commits uploads: a small upload's `files/upload` on its
    /// own or its batch; a session's start and finish; a download, a delete, a metadata lookup,
    /// a listing and the change feed.
    static let routes: [(RateLimitedRoute, batched: Bool)] = [
        (RateLimitedRoute(.smallUpload, route: "/2/files/upload"), false),
        (RateLimitedRoute(.smallUpload, route: "/2/files/upload_session/finish_batch_v2"), true),
        (RateLimitedRoute(.largeUpload(bytes: 100 * 1024), route: "/2/files/upload_session/start"), false),
        (RateLimitedRoute(.largeUpload(bytes: 100 * 1024), route: "/2/files/upload_session/finish"), false),
        (RateLimitedRoute(.download, route: "/2/files/download"), true),
        (RateLimitedRoute(.delete, route: "/2/files/delete_v2"), true),
        (RateLimitedRoute(.metadata(of: "any.txt"), route: "/2/files/get_metadata"), true),
        (RateLimitedRoute(.listing, route: "/2/files/list_folder"), true),
        (RateLimitedRoute(.changeFeed, route: "/2/files/list_folder/continue"), true),
    ]

    @Test(arguments: routes)
    func anOperationAsksItsRouteAtMostMaximumAttemptsTimes(_ refused: RateLimitedRoute, batched: Bool) async throws {
        try await MockFixture.withRunning { fixture in
            try await refused.check(
                fixture.makeService(batching: batched ? .standard : nil), maximumAttempts: MockFixture.maximumAttempts,
                refusing: fixture.mock.rateLimitForGood)
        }
    }

    /// The request that commits a small upload: `files/upload` on its own, or the batch.
    static let commits: [(route: String, batched: Bool)] = [
        ("/2/files/upload", false), ("/2/files/upload_session/finish_batch_v2", true),
    ]

    @Test(arguments: commits)
    func aWriteOfUnknownOutcomeThenRefusedIsSentAtMostMaximumAttemptsTimes(route: String, batched: Bool)
        async throws
    {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService(batching: batched ? .standard : nil)
            // The first upload fails with a 5xx (its outcome unknown), every later one is refused.
            _ = fixture.server.faults.add(FaultRule(route: route, fault: .status(503)))
            _ = fixture.server.faults.add(FaultRule(route: route, nth: 2, times: 0, fault: .status(429, retryAfter: 0)))
            let path = try RemotePath("once.txt")
            let error = await #expect(throws: ServiceError.self) {
                _ = try await service.upload(from: .bytes(Data("once".utf8)), to: path)
            }
            #expect(error?.code == .rateLimited, "\(String(describing: error))")
            #expect(fixture.server.requestLog.entries(path: route).map(\.status) == [503, 429, 429])
            // The unknown outcome was looked at before the write was sent again.
            #expect(fixture.server.requestLog.entries(path: "/2/files/get_metadata").count >= 1)
        }
    }
}
