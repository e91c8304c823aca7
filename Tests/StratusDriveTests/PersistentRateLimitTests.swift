import MockProviders
import StratusDrive
import StratusTestSupport
import Testing

/// What a route of the mock Drive refused with 429 for good costs each operation that needs it
/// (see ``RateLimitedRoute``).
@Suite struct PersistentRateLimitTests {
    /// Each route with how the service deletes: a multipart upload; a resumable upload opening
    /// its session, then asking it; a download; a listing and a metadata lookup (both
    /// `files.list`); the change feed; and a delete, permanent (a `DELETE`) or to the trash (a
    /// `PATCH`).
    static let routes: [(RateLimitedRoute, deleteMode: DriveConfiguration.DeleteMode?)] = [
        (RateLimitedRoute(.smallUpload, route: "/upload/drive/v3/files", method: "POST"), nil),
        (RateLimitedRoute(.largeUpload(bytes: 300 * 1024), route: "/upload/drive/v3/files", method: "POST"), nil),
        (RateLimitedRoute(.largeUpload(bytes: 300 * 1024), route: "/upload/drive/v3/files*", method: "PUT"), nil),
        (RateLimitedRoute(.download, route: "/drive/v3/files/*", method: "GET"), nil),
        (RateLimitedRoute(.listing, route: "/drive/v3/files", method: "GET"), nil),
        (RateLimitedRoute(.metadata(of: "other.txt"), route: "/drive/v3/files", method: "GET"), nil),
        (RateLimitedRoute(.changeFeed, route: "/drive/v3/changes", method: "GET"), nil),
        (RateLimitedRoute(.delete, route: "/drive/v3/files/*", method: "DELETE"), .permanent),
        (RateLimitedRoute(.delete, route: "/drive/v3/files/*", method: "PATCH"), .trash),
    ]

    @Test(arguments: routes)
    func anOperationAsksItsRouteAtMostMaximumAttemptsTimes(
        _ refused: RateLimitedRoute, deleteMode: DriveConfiguration.DeleteMode?
    ) async throws {
        try await MockFixture.withRunning { fixture in
            try await refused.check(
                fixture.makeService(deleteMode: deleteMode), maximumAttempts: MockFixture.maximumAttempts,
                refusing: fixture.mock.rateLimitForGood)
        }
    }
}
