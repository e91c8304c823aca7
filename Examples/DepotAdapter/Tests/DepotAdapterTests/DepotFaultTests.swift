import DepotAdapter
import Foundation
import MockSupport
import Stratus
import Testing

/// The adapter under the mock kit's faults: what is repeated, what is looked up first, and what
/// never reaches the destination.
@Suite struct DepotFaultTests {
    @Test func aServiceUnavailableOnceIsRetried() async throws {
        try await DepotFixture.withRunning { fixture in
            fixture.depot.faults.add(FaultRule(route: "/files/*", method: "PUT", fault: .status(503, retryAfter: 0)))
            let service = try fixture.makeService()
            let path = try RemotePath("saves/slot 1.json")
            let file = try await service.upload(from: .bytes(Data("level 3".utf8)), to: path)
            #expect(file.size == 7)
            let puts = fixture.depot.requestLog.entries(where: { $0.method == "PUT" })
            #expect(puts.map(\.status) == [503, 201])
            #expect(try await service.metadata(of: path).version == file.version)
        }
    }

    @Test func aPersistentRateLimitStopsAtMaximumAttempts() async throws {
        try await DepotFixture.withRunning { fixture in
            let service = try fixture.makeService()
            let path = try RemotePath("busy.bin")
            _ = try await service.upload(from: .bytes(Data("busy".utf8)), to: path)
            fixture.depot.faults.add(
                FaultRule(route: "/files/*", method: "GET", times: 0, fault: .status(429, retryAfter: 0)))
            try await withTemporaryFolder { folder in
                let error = await #expect(throws: ServiceError.self) {
                    try await service.download(path, to: folder.appending(path: "busy.bin"))
                }
                #expect(error?.code == .rateLimited)
            }
            let gets = fixture.depot.requestLog.entries(where: { $0.method == "GET" && $0.path.hasPrefix("/files/") })
            #expect(gets.count == DepotFixture.quickRetries.maximumAttempts)
        }
    }

    @Test func aWriteWhoseAnswerIsLostIsLookedUpNotSentAgain() async throws {
        try await DepotFixture.withRunning { fixture in
            fixture.depot.faults.add(FaultRule(route: "/files/*", method: "PUT", fault: .dropBeforeResponse))
            let service = try fixture.makeService()
            let path = try RemotePath("once.json")
            // Sent again blindly, a create-only write that did happen would come back as a conflict.
            let file = try await service.upload(
                from: .bytes(Data("once".utf8)), to: path, options: UploadOptions(precondition: .mustNotExist)
            )
            #expect(fixture.depot.requestLog.entries(where: { $0.method == "PUT" }).count == 1)
            #expect(fixture.depot.requestLog.entries(where: { $0.method == "HEAD" }).count >= 1)
            #expect(try await service.metadata(of: path).version == file.version)
        }
    }

    @Test func aDownloadCutMidwayContinuesWithRange() async throws {
        try await DepotFixture.withRunning { fixture in
            let service = try fixture.makeService()
            let path = try RemotePath("big.bin")
            let content = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            _ = try await service.upload(from: .bytes(content), to: path)
            fixture.depot.faults.add(
                FaultRule(route: "/files/*", method: "GET", fault: .dropAfterResponseBytes(300_000)))
            try await withTemporaryFolder { folder in
                let destination = folder.appending(path: "big.bin")
                _ = try await service.download(path, to: destination)
                #expect(try Data(contentsOf: destination) == content)
                #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["big.bin"])
            }
            let gets = fixture.depot.requestLog.entries(where: { $0.method == "GET" && $0.path.hasPrefix("/files/") })
            #expect(gets.count == 2)
            #expect(gets.last?.header("Range")?.hasPrefix("bytes=") == true)
            #expect(gets.last?.header("Range") != "bytes=0-")
        }
    }

    @Test func aCorruptedDownloadNeverReachesTheDestination() async throws {
        try await DepotFixture.withRunning { fixture in
            let service = try fixture.makeService()
            let path = try RemotePath("fragile.bin")
            _ = try await service.upload(from: .bytes(Data(repeating: 7, count: 10_000)), to: path)
            fixture.depot.faults.add(FaultRule(route: "/files/*", method: "GET", times: 0, fault: .corruptBody))
            try await withTemporaryFolder { folder in
                let destination = folder.appending(path: "fragile.bin")
                try Data("before".utf8).write(to: destination)
                let error = await #expect(throws: ServiceError.self) {
                    try await service.download(path, to: destination)
                }
                #expect(error?.code == .integrityMismatch)
                #expect(try Data(contentsOf: destination) == Data("before".utf8))
                #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["fragile.bin"])
            }
        }
    }
}
