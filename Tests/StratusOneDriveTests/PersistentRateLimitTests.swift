import Foundation
import MockSupport
import Stratus
import StratusTestSupport
import Testing

@testable import StratusOneDrive

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
        _ operation: @Sendable () async throws -> Void
    ) async throws -> Int {
        let rule = FaultRule(route: route, method: method, times: 0, fault: .status(429, retryAfter: 0))
        _ = fixture.faults.add(rule)
        fixture.server.requestLog.clear()
        let error = await #expect(throws: ServiceError.self) { try await operation() }
        #expect(error?.code == .rateLimited, "\(String(describing: error))")
        return fixture.server.requestLog.entries { rule.matches(method: $0.method, path: $0.path) }.count
    }

    @Test func aSimplePutIsSentAtMostMaximumAttemptsTimes() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService()
            let count = try await Self.requests(fixture, route: "*:/small.txt:/content", method: "PUT") {
                _ = try await service.upload(from: .bytes(Data("small".utf8)), to: RemotePath("small.txt"))
            }
            #expect(count == Self.maximumAttempts)
        }
    }

    @Test func anUploadSessionIsOpenedAtMostMaximumAttemptsTimes() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService()
            let bytes = Self.content(400 * 1024)
            let count = try await Self.requests(fixture, route: "*/createUploadSession", method: "POST") {
                _ = try await service.upload(from: .bytes(bytes), to: RemotePath("large.bin"))
            }
            #expect(count == Self.maximumAttempts)
        }
    }

    @Test func aFragmentIsSentAtMostMaximumAttemptsTimes() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService()
            let bytes = Self.content(400 * 1024)
            let count = try await Self.requests(fixture, route: "/upload/*", method: "PUT") {
                _ = try await service.upload(from: .bytes(bytes), to: RemotePath("large.bin"))
            }
            #expect(count == Self.maximumAttempts)
        }
    }

    @Test func aDeleteIsSentAtMostMaximumAttemptsTimes() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService()
            let path = try RemotePath("doomed.txt")
            _ = try await service.upload(from: .bytes(Data("bye".utf8)), to: path)
            let count = try await Self.requests(fixture, route: "/v1.0/me/drive/items/*", method: "DELETE") {
                try await service.delete(path)
            }
            #expect(count == Self.maximumAttempts)
        }
    }

    @Test func aMetadataReadIsSentAtMostMaximumAttemptsTimes() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService()
            let path = try RemotePath("read.txt")
            _ = try await service.upload(from: .bytes(Data("r".utf8)), to: path)
            let count = try await Self.requests(fixture, route: "*:/read.txt:", method: "GET") {
                _ = try await service.metadata(of: path)
            }
            #expect(count == Self.maximumAttempts)
        }
    }

    @Test func aDeltaPageIsAskedAtMostMaximumAttemptsTimes() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService()
            let token = try await service.latestChangeToken()
            let count = try await Self.requests(fixture, route: "*/delta*", method: "GET") {
                _ = try await service.changes(since: token)
            }
            #expect(count == Self.maximumAttempts)
        }
    }

    @Test func aDownloadAsksItsContentAtMostMaximumAttemptsTimes() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService()
            let path = try RemotePath("down.txt")
            _ = try await service.upload(from: .bytes(Data("down".utf8)), to: path)
            let folder = FileManager.default.temporaryDirectory.appending(path: "onedrive-429-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let count = try await Self.requests(fixture, route: "/download/*", method: "GET") {
                _ = try await service.download(path, to: folder.appending(path: "down.txt"))
            }
            #expect(count == Self.maximumAttempts)
        }
    }
}
