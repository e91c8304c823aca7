import Foundation
import MockSupport
import Stratus
import Testing

@testable import StratusDropbox

/// A route that answers every request with 429 costs at most the retry policy's
/// `maximumAttempts` requests per operation, writes of unknown outcome included: the one retry
/// loop sends each request, and no retrying request runs inside another loop.
@Suite struct PersistentRateLimitTests {
    /// The fixture's policy allows 3 attempts.
    static let maximumAttempts = 3

    /// Rate-limits `route` for good, runs `operation`, checks that it fails as rate-limited,
    /// and counts the requests the route received.
    private static func requests(_ fixture: MockFixture, route: String, _ operation: @Sendable () async throws -> Void)
        async throws -> Int
    {
        _ = fixture.server.faults.add(FaultRule(route: route, times: 0, fault: .status(429, retryAfter: 0)))
        fixture.server.requestLog.clear()
        let error = await #expect(throws: ServiceError.self) { try await operation() }
        #expect(error?.code == .rateLimited, "\(String(describing: error))")
        return fixture.server.requestLog.entries(path: route).count
    }

    /// The request that commits a small upload: `files/upload` on its own, or the batch.
    static let commits: [(route: String, batched: Bool)] = [
        ("/2/files/upload", false), ("/2/files/upload_session/finish_batch_v2", true),
    ]

    @Test(arguments: commits)
    func aSmallUploadIsSentAtMostMaximumAttemptsTimes(route: String, batched: Bool) async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService(batching: batched ? .standard : nil)
            let count = try await Self.requests(fixture, route: route) {
                _ = try await service.upload(from: .bytes(Data("small".utf8)), to: RemotePath("small.txt"))
            }
            #expect(count == Self.maximumAttempts)
        }
    }

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

    @Test(arguments: ["/2/files/upload_session/start", "/2/files/upload_session/finish"])
    func aSessionRequestIsSentAtMostMaximumAttemptsTimes(route: String) async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService(batching: nil)
            let bytes = Data((0..<(100 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
            let count = try await Self.requests(fixture, route: route) {
                _ = try await service.upload(from: .bytes(bytes), to: RemotePath("large.bin"))
            }
            #expect(count == Self.maximumAttempts)
        }
    }

    @Test func aDownloadIsAskedAtMostMaximumAttemptsTimes() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService()
            let path = try RemotePath("read.txt")
            _ = try await service.upload(from: .bytes(Data("read me".utf8)), to: path)
            // The staging file goes beside the destination, in the temporary folder, and is removed.
            let destination = FileManager.default.temporaryDirectory.appending(
                path: "dropbox-ratelimit-\(UUID().uuidString)")
            let count = try await Self.requests(fixture, route: "/2/files/download") {
                _ = try await service.download(path, to: destination)
            }
            #expect(!FileManager.default.fileExists(atPath: destination.path))
            #expect(count == Self.maximumAttempts)
        }
    }

    @Test func aDeleteIsSentAtMostMaximumAttemptsTimes() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService()
            let path = try RemotePath("doomed.txt")
            _ = try await service.upload(from: .bytes(Data("bye".utf8)), to: path)
            let count = try await Self.requests(fixture, route: "/2/files/delete_v2") {
                try await service.delete(path)
            }
            #expect(count == Self.maximumAttempts)
        }
    }

    @Test func aMetadataLookupAndAListingAreAskedAtMostMaximumAttemptsTimes() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService()
            let metadata = try await Self.requests(fixture, route: "/2/files/get_metadata") {
                _ = try await service.metadata(of: RemotePath("any.txt"))
            }
            #expect(metadata == Self.maximumAttempts)
            let listed = try await Self.requests(fixture, route: "/2/files/list_folder") {
                _ = try await service.list(.root)
            }
            #expect(listed == Self.maximumAttempts)
        }
    }

    @Test func theChangeFeedIsAskedAtMostMaximumAttemptsTimes() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService()
            let token = try await service.latestChangeToken()
            let count = try await Self.requests(fixture, route: "/2/files/list_folder/continue") {
                _ = try await service.changes(since: token)
            }
            #expect(count == Self.maximumAttempts)
        }
    }
}
