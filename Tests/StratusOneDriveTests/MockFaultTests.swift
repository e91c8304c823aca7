import Foundation
import MockOneDrive
import MockSupport
import Stratus
import StratusTestSupport
import Testing

@testable import StratusOneDrive

/// Faults on the wire and the service's known quirks: resumed uploads and downloads, 416, an
/// expired delta token, eTag drift, a full drive.
@Suite struct MockFaultTests {
    private static func content(_ size: Int) -> Data {
        Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
    }

    private static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appending(path: "onedrive-fault-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func aDroppedFragmentResumesFromNextExpectedRanges() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService()
            let bytes = Self.content(4 * Int(OneDriveConfiguration.fragmentUnit) + 99)
            _ = fixture.faults.add(
                FaultRule(route: "/upload/*", method: "PUT", nth: 2, times: 1, fault: .dropAfterRequestBytes(1000)))
            let path = try RemotePath("resumed.bin")
            let file = try await service.upload(from: .bytes(bytes), to: path)
            #expect(file.size == Int64(bytes.count))
            let statusAsks = fixture.server.requestLog.entries { $0.method == "GET" && $0.path.hasPrefix("/upload/") }
            #expect(statusAsks.count == 1)
            let folder = try Self.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            _ = try await service.download(path, to: folder.appending(path: "r.bin"))
            #expect(try Data(contentsOf: folder.appending(path: "r.bin")) == bytes)
        }
    }

    @Test func a416AsksTheSessionWhereToGoOn() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService()
            let bytes = Self.content(3 * Int(OneDriveConfiguration.fragmentUnit))
            _ = fixture.faults.add(FaultRule(route: "/upload/*", method: "PUT", nth: 2, times: 1, fault: .status(416)))
            let file = try await service.upload(from: .bytes(bytes), to: RemotePath("taken.bin"))
            #expect(file.size == Int64(bytes.count))
            #expect(
                fixture.server.requestLog.entries { $0.method == "GET" && $0.path.hasPrefix("/upload/") }.count == 1)
        }
    }

    @Test func aDroppedDownloadContinuesWithRange() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService()
            let bytes = Self.content(600 * 1024)
            let path = try RemotePath("long.bin")
            _ = try await service.upload(from: .bytes(bytes), to: path)
            _ = fixture.faults.add(
                FaultRule(route: "/download/*", method: "GET", times: 1, fault: .dropAfterResponseBytes(200 * 1024)))
            let folder = try Self.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let destination = folder.appending(path: "long.bin")
            _ = try await service.download(path, to: destination)
            #expect(try Data(contentsOf: destination) == bytes)
            let gets = fixture.server.requestLog.entries { $0.method == "GET" && $0.path.hasPrefix("/download/") }
            #expect(gets.count == 2)
            #expect(gets.last?.header("range")?.hasPrefix("bytes=") == true)
            #expect(gets.last?.header("range") != "bytes=0-")
        }
    }

    @Test func aCorruptedDownloadNeverReplacesTheDestination() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService()
            let path = try RemotePath("precious.txt")
            _ = try await service.upload(from: .bytes(Data("the real content".utf8)), to: path)
            _ = fixture.faults.add(FaultRule(route: "/download/*", method: "GET", times: 0, fault: .corruptBody))
            let folder = try Self.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let destination = folder.appending(path: "precious.txt")
            try Data("old".utf8).write(to: destination)
            let error = await #expect(throws: ServiceError.self) { try await service.download(path, to: destination) }
            #expect(error?.code == .integrityMismatch)
            #expect(try Data(contentsOf: destination) == Data("old".utf8))
        }
    }

    @Test func anExpiredDeltaTokenIsInvalidChangeToken() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService()
            let token = try await service.latestChangeToken()
            _ = try await service.upload(from: .bytes(Data("x".utf8)), to: RemotePath("x.txt"))
            fixture.server.expireDeltaTokens()
            let error = await #expect(throws: ServiceError.self) { try await service.changes(since: token) }
            #expect(error?.code == .invalidChangeToken)
            #expect(error?.httpStatus == 410)
        }
    }

    @Test func eTagDriftAfterAnUploadIsNotAConflict() async throws {
        try await MockFixture.withRunning(options: MockOneDriveServer.Options(eTagDriftAfterUpload: true)) { fixture in
            let service = try fixture.makeService()
            let path = try RemotePath("drift.txt")
            var file = try await service.upload(from: .bytes(Data("1".utf8)), to: path)
            for round in 2...4 {
                file = try await service.upload(
                    from: .bytes(Data("\(round)".utf8)), to: path,
                    options: UploadOptions(precondition: .mustMatch(file.version)))
            }
            let large = Self.content(100 * 1024)
            file = try await service.upload(
                from: .bytes(large), to: path, options: UploadOptions(precondition: .mustMatch(file.version)))
            #expect(file.size == Int64(large.count))
            #expect(try await service.versions(of: path).count == 5)
        }
    }

    @Test func aFullDriveIsQuotaExceeded() async throws {
        try await MockFixture.withRunning(options: MockOneDriveServer.Options(quotaBytes: 1000)) { fixture in
            let service = try fixture.makeService()
            let error = await #expect(throws: ServiceError.self) {
                try await service.upload(from: .bytes(Self.content(2000)), to: RemotePath("big.bin"))
            }
            #expect(error?.code == .quotaExceeded)
            #expect(error?.httpStatus == 507)
        }
    }
}

/// Damaged answers to the fragments of an upload session. (The mock flips the body's middle
/// byte, which the JSON decoder may or may not notice depending on where it falls; either way
/// the upload must end with the content written once.)
@Suite struct DamagedFragmentAnswerTests {
    @Test func aDamagedLastFragmentAnswerStillEndsWithOneVersion() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService()
            let unit = Int(OneDriveConfiguration.fragmentUnit)
            let bytes = Data((0..<(2 * unit + 10)).map { UInt8(truncatingIfNeeded: $0 &* 11) })
            _ = fixture.faults.add(
                FaultRule(route: "/upload/*", method: "PUT", nth: 3, times: 1, fault: .corruptBody))
            let file = try await service.upload(from: .bytes(bytes), to: RemotePath("damaged-last.bin"))
            #expect(file.size == Int64(bytes.count))
            #expect(try await service.versions(of: RemotePath("damaged-last.bin")).count == 1)
        }
    }
}
