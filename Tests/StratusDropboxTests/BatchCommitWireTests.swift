import Foundation
import MockDropbox
import MockSupport
import Stratus
import StratusDropbox
import StratusTestSupport
import Testing

/// Batch commits against the mock: many uploads committed in few `finish_batch_v2` requests,
/// one at a time, with each file's precondition kept and a lost answer found, not repeated.
@Suite struct BatchCommitWireTests {
    static let batchRoute = "/2/files/upload_session/finish_batch_v2"

    /// What `body` returned or threw.
    static func outcome<T: Sendable>(_ body: @Sendable () async throws -> T) async -> Result<T, any Error> {
        do { return .success(try await body()) } catch { return .failure(error) }
    }

    @Test func concurrentUploadsAreCommittedInBatchesOneAtATime() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService(root: "/batch")
            let names = (0..<40).map { "f\($0).txt" }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for name in names {
                    group.addTask {
                        let file = try await service.upload(
                            from: .bytes(Data(name.utf8)), to: try RemotePath(name), options: UploadOptions())
                        #expect(file.path.description == name)
                        #expect(file.size == Int64(name.utf8.count))
                    }
                }
                try await group.waitForAll()
            }
            let log = fixture.server.requestLog
            let batches = log.entries(path: Self.batchRoute)
            #expect((1..<40).contains(batches.count))
            #expect(batches.allSatisfy { $0.status == 200 })
            #expect(log.entries(path: "/2/files/upload").isEmpty)
            #expect(log.entries(where: { $0.status == 429 }).isEmpty)
            for name in names {
                let data = try await service.downloadData(try RemotePath(name))
                #expect(String(decoding: data, as: UTF8.self) == name)
            }
        }
    }

    @Test func eachEntryKeepsItsOwnPrecondition() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService(root: "/conditions")
            let kept = try RemotePath("kept.txt")
            let stale = try RemotePath("stale.txt")
            let first = try await service.upload(from: .bytes(Data("1".utf8)), to: stale, options: UploadOptions())
            _ = try await service.upload(from: .bytes(Data("2".utf8)), to: stale, options: UploadOptions())
            // Both wait for the same batch: one is committed, the other refused.
            async let fresh = service.upload(
                from: .bytes(Data("new".utf8)), to: kept, options: UploadOptions(precondition: .mustNotExist))
            async let refused = Self.outcome {
                try await service.upload(
                    from: .bytes(Data("3".utf8)), to: stale,
                    options: UploadOptions(precondition: .mustMatch(first.version)))
            }
            #expect(try await fresh.size == 3)
            let outcome = await refused
            #expect(throws: ServiceError.self) { try outcome.get() }
            if case .failure(let error) = outcome { #expect((error as? ServiceError)?.code == .conflict) }
            #expect(try await service.downloadData(stale) == Data("2".utf8))
        }
    }

    @Test func aFileAboveTheSingleUploadLimitIsClosedAndCommittedInABatch() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService(root: "/large")
            let path = try RemotePath("big.bin")
            let bytes = Data((0..<(200 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            let file = try await service.upload(from: .bytes(bytes), to: path, options: UploadOptions())
            #expect(file.size == Int64(bytes.count))
            #expect(fixture.server.requestLog.entries(path: Self.batchRoute).count == 1)
            #expect(fixture.server.requestLog.entries(path: "/2/files/upload_session/finish").isEmpty)
            #expect(try await service.downloadData(path) == bytes)
        }
    }

    @Test func aLostBatchAnswerIsFoundInsteadOfCommittedTwice() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService(root: "/lost")
            fixture.server.faults.add(FaultRule(route: Self.batchRoute, fault: .dropBeforeResponse))
            let path = try RemotePath("once.txt")
            let file = try await service.upload(
                from: .bytes(Data("once".utf8)), to: path, options: UploadOptions(precondition: .mustNotExist))
            #expect(fixture.server.requestLog.entries(path: Self.batchRoute).count == 1)
            #expect(try await service.versions(of: path).map(\.id) == [file.version])
        }
    }

    @Test func everyFileOfABatchWhoseAnswerWasLostIsFoundNotCommittedTwice() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService(root: "/lost-many")
            fixture.server.faults.add(FaultRule(route: Self.batchRoute, fault: .dropBeforeResponse))
            let names = (0..<12).map { "f\($0).txt" }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for name in names {
                    group.addTask {
                        _ = try await service.upload(
                            from: .bytes(Data(name.utf8)), to: try RemotePath(name),
                            options: UploadOptions(precondition: .mustNotExist))
                    }
                }
                try await group.waitForAll()
            }
            for name in names {
                let path = try RemotePath(name)
                #expect(try await service.versions(of: path).count == 1)
                #expect(try await service.downloadData(path) == Data(name.utf8))
            }
        }
    }

    @Test func singleCommitsWhenBatchingIsOff() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService(root: "/single", batching: nil)
            _ = try await service.upload(
                from: .bytes(Data("x".utf8)), to: try RemotePath("x.txt"), options: UploadOptions())
            #expect(fixture.server.requestLog.entries(path: "/2/files/upload").count == 1)
            #expect(fixture.server.requestLog.entries(path: Self.batchRoute).isEmpty)
        }
    }
}

extension DropboxService {
    /// The current content of a file, through a download into a folder of the test's own.
    fileprivate func downloadData(_ path: RemotePath) async throws -> Data {
        try await withTemporaryFolder(prefix: "batch-commit") { folder in
            let destination = folder.appending(path: "download.bin")
            _ = try await download(path, to: destination)
            return try Data(contentsOf: destination)
        }
    }
}
