import Foundation
import MockSupport
import Stratus
import StratusTestSupport
import Testing

@testable import StratusDrive

/// A route that answers every request with 429 costs at most the retry policy's
/// `maximumAttempts` requests per operation: no retrying request runs inside another retry loop.
@Suite struct PersistentRateLimitTests {
    /// The fixture's policy allows 3 attempts.
    static let maximumAttempts = 3

    private static func content(_ size: Int) -> Data {
        Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) })
    }

    /// Rate-limits `method` on `route` for good, runs `operation`, checks that it fails as
    /// rate-limited, and counts the requests the refused route received.
    private static func requests(
        _ fixture: MockFixture,
        route: String,
        method: String,
        counting isCounted: @escaping @Sendable (String) -> Bool,
        _ operation: @Sendable () async throws -> Void
    ) async throws -> Int {
        _ = fixture.faults.add(FaultRule(route: route, method: method, times: 0, fault: .status(429, retryAfter: 0)))
        fixture.server.requestLog.clear()
        let error = await #expect(throws: ServiceError.self) { try await operation() }
        #expect(error?.code == .rateLimited, "\(String(describing: error))")
        return fixture.server.requestLog.entries { $0.method == method && isCounted($0.path) }.count
    }

    @Test func aDeleteIsSentAtMostMaximumAttemptsTimes() async throws {
        for mode in [DriveConfiguration.DeleteMode.permanent, .trash] {
            try await MockFixture.withRunning { fixture in
                let service = try fixture.makeService(deleteMode: mode)
                let path = try RemotePath("doomed.txt")
                _ = try await service.upload(from: .bytes(Data("bye".utf8)), to: path)
                let method = mode == .permanent ? "DELETE" : "PATCH"
                let count = try await Self.requests(
                    fixture, route: "/drive/v3/files/*", method: method, counting: { $0.hasPrefix("/drive/v3/files/") }
                ) {
                    try await service.delete(path)
                }
                #expect(count == Self.maximumAttempts, "\(mode)")
            }
        }
    }

    @Test func aMultipartUploadIsSentAtMostMaximumAttemptsTimes() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService()
            let count = try await Self.requests(
                fixture, route: "/upload/drive/v3/files", method: "POST", counting: { $0 == "/upload/drive/v3/files" }
            ) {
                _ = try await service.upload(from: .bytes(Data("small".utf8)), to: RemotePath("small.txt"))
            }
            #expect(count == Self.maximumAttempts)
        }
    }

    @Test func aResumableUploadAsksItsSessionAtMostMaximumAttemptsTimes() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService()
            let bytes = Self.content(300 * 1024)
            let count = try await Self.requests(
                fixture, route: "/upload/drive/v3/files*", method: "PUT",
                counting: { $0.hasPrefix("/upload/drive/v3/files") }
            ) {
                _ = try await service.upload(from: .bytes(bytes), to: RemotePath("large.bin"))
            }
            #expect(count == Self.maximumAttempts)
        }
    }

    @Test func aResumableUploadIsOpenedAtMostMaximumAttemptsTimes() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService()
            let bytes = Self.content(300 * 1024)
            let count = try await Self.requests(
                fixture, route: "/upload/drive/v3/files", method: "POST", counting: { $0 == "/upload/drive/v3/files" }
            ) {
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
            let temporaryFolder = try TemporaryFolder(prefix: "drive-ratelimit")
            defer { temporaryFolder.remove() }
            let folder = temporaryFolder.url
            let count = try await Self.requests(
                fixture, route: "/drive/v3/files/*", method: "GET", counting: { $0.hasPrefix("/drive/v3/files/") }
            ) {
                _ = try await service.download(path, to: folder.appending(path: "read.txt"))
            }
            #expect(count == Self.maximumAttempts)
            #expect(!FileManager.default.fileExists(atPath: folder.appending(path: "read.txt").path))
        }
    }

    @Test func aListingAndAMetadataLookupAreAskedAtMostMaximumAttemptsTimes() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService()
            let path = try RemotePath("listed.txt")
            _ = try await service.upload(from: .bytes(Data("listed".utf8)), to: path)
            let listed = try await Self.requests(
                fixture, route: "/drive/v3/files", method: "GET", counting: { $0 == "/drive/v3/files" }
            ) {
                _ = try await service.list(.root)
            }
            #expect(listed == Self.maximumAttempts)
            fixture.server.requestLog.clear()
            let error = await #expect(throws: ServiceError.self) {
                _ = try await service.metadata(of: RemotePath("other.txt"))
            }
            #expect(error?.code == .rateLimited)
            #expect(
                fixture.server.requestLog.entries { $0.method == "GET" && $0.path == "/drive/v3/files" }.count
                    == Self.maximumAttempts)
        }
    }

    @Test func theChangeFeedIsAskedAtMostMaximumAttemptsTimes() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService()
            let token = try await service.latestChangeToken()
            let count = try await Self.requests(
                fixture, route: "/drive/v3/changes", method: "GET", counting: { $0 == "/drive/v3/changes" }
            ) {
                _ = try await service.changes(since: token)
            }
            #expect(count == Self.maximumAttempts)
        }
    }
}
