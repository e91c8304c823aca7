import MockProviders
import StratusTestSupport
import Testing

/// What a route of the mock Graph refused with 429 for good costs each operation that needs it
/// (see ``RateLimitedRoute``).
@Suite struct PersistentRateLimitTests {
    /// A simple `PUT`; an upload session opened, then its fragment sent; a delete; a metadata
    /// read; a delta page; and a download asking the content host.
    static let routes = [
        RateLimitedRoute(.smallUpload, route: "*:/small.txt:/content", method: "PUT"),
        RateLimitedRoute(.largeUpload(bytes: 400 * 1024), route: "*/createUploadSession", method: "POST"),
        RateLimitedRoute(.largeUpload(bytes: 400 * 1024), route: "/upload/*", method: "PUT"),
        RateLimitedRoute(.delete, route: "/v1.0/me/drive/items/*", method: "DELETE"),
        RateLimitedRoute(.metadata(of: "read.txt"), route: "*:/read.txt:", method: "GET"),
        RateLimitedRoute(.changeFeed, route: "*/delta*", method: "GET"),
        RateLimitedRoute(.download, route: "/download/*", method: "GET"),
    ]

    @Test(arguments: routes)
    func anOperationAsksItsRouteAtMostMaximumAttemptsTimes(_ refused: RateLimitedRoute) async throws {
        try await MockFixture.withRunning { fixture in
            try await refused.check(
                fixture.makeService(), maximumAttempts: MockFixture.maximumAttempts,
                refusing: fixture.mock.rateLimitForGood)
        }
    }
}
