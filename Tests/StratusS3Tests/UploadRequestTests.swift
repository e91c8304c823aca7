import Foundation
import Stratus
import StratusDigest
import StratusTestSupport
import Synchronization
import Testing

@testable import StratusS3

/// Which requests an upload makes, against each S3 server (moto and Ceph), counted by the
/// service's request log.
@Suite struct UploadRequestTests {
    /// The operation of each action (`PutObject of a/b` → `PutObject`).
    func operations(_ actions: [String]) -> [String] {
        actions.map { String($0.prefix { $0 != " " }) }
    }

    @Test(
        "a new file is a listing, a HEAD per folder above it and the PutObject; its answer describes it",
        arguments: S3TestServer.allCases, [S3Configuration.Versioning.enable, .off])
    func newFileRequests(server: S3TestServer, versioning: S3Configuration.Versioning) async throws {
        let service = try await server.makeService(bucket: MotoServer.uniqueBucket("requests"), versioning: versioning)
        // The first upload reads its object back, and finds the metadata kept.
        _ = try await service.upload(from: .bytes(Data("first".utf8)), to: try RemotePath("saves/first.bin"))
        #expect(service.metadataKept.withLock { $0 })

        let data = Data("a new file".utf8)
        let path = try RemotePath("saves/new.bin")
        service.transport.requestLog.start()
        let written = try await service.upload(
            from: .bytes(data), to: path, options: UploadOptions(metadata: ["owner": "me"]))
        let actions = service.transport.requestLog.stop().actions
        #expect(operations(actions) == ["ListObjectsV2", "HeadObject", "PutObject"], "\(actions)")

        let described = try await service.metadata(of: path)
        #expect(written.size == described.size)
        #expect(written.contentHash == described.contentHash)
        #expect(written.contentHash?.value == Hex.encode(Digest.sha256(data)))
        #expect(written.version == described.version)
        #expect(written.metadata == described.metadata)
        #expect(written.id == described.id)
        // The answer's Date is stamped after the object's Last-Modified (both to the second).
        #expect(written.modified >= described.modified)
    }

    @Test(
        "a file at the bucket's top is a listing and the PutObject; an overwrite adds the HEAD that keeps its metadata",
        arguments: S3TestServer.allCases)
    func topLevelAndOverwrite(server: S3TestServer) async throws {
        let service = try await server.makeService(bucket: MotoServer.uniqueBucket("requests"))
        let path = try RemotePath("top.bin")
        _ = try await service.upload(
            from: .bytes(Data("one".utf8)), to: path, options: UploadOptions(metadata: ["kind": "save"]))

        service.transport.requestLog.start()
        _ = try await service.upload(from: .bytes(Data("other".utf8)), to: try RemotePath("other.bin"))
        #expect(operations(service.transport.requestLog.stop().actions) == ["ListObjectsV2", "PutObject"])

        service.transport.requestLog.start()
        let written = try await service.upload(from: .bytes(Data("two".utf8)), to: path)
        #expect(
            operations(service.transport.requestLog.stop().actions) == ["ListObjectsV2", "HeadObject", "PutObject"])
        #expect(written.metadata == ["kind": "save"])
        #expect(try await service.metadata(of: path).metadata == ["kind": "save"])
    }

    @Test(
        "a folder is found at the path even when more keys starting with its name than one page fill the listing",
        arguments: S3TestServer.allCases)
    func folderBehindManySiblings(server: S3TestServer) async throws {
        let service = try await server.makeService(bucket: MotoServer.uniqueBucket("siblings"))
        // '-' sorts before '/', so these 101 keys come before "slot/" in the listing.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0...100 {
                let name = "slot-" + String(1000 + index)
                group.addTask {
                    _ = try await service.upload(from: .bytes(Data(name.utf8)), to: try RemotePath(name))
                }
            }
            try await group.waitForAll()
        }
        _ = try await service.upload(from: .bytes(Data("inside".utf8)), to: try RemotePath("slot/inside.bin"))
        await expectServiceError(.conflict) {
            _ = try await service.upload(from: .bytes(Data("a file".utf8)), to: try RemotePath("slot"))
        }
        await expectServiceError(.conflict) {
            _ = try await service.upload(from: .bytes(Data("below".utf8)), to: try RemotePath("slot-1000/below.bin"))
        }
    }

    @Test("a folder check is shared only with requests sent after the asking upload began")
    func folderCheckSharing() async throws {
        let sharing = S3FolderCheckSharing()
        let asked = Counter()
        let ask: @Sendable () async throws -> Bool = {
            asked.increment()
            return false
        }
        let first = ContinuousClock.now
        #expect(try await sharing.isFile("saves", askedSince: first, ask: ask) == false)
        #expect(asked.value == 1)
        // An upload that began before that request went out may use its answer.
        #expect(try await sharing.isFile("saves", askedSince: first, ask: ask) == false)
        #expect(asked.value == 1)
        // One that began after it asks again.
        let second = ContinuousClock.now
        #expect(try await sharing.isFile("saves", askedSince: second, ask: ask) == false)
        #expect(asked.value == 2)
        // Another folder is another question.
        #expect(try await sharing.isFile("other", askedSince: first, ask: ask) == false)
        #expect(asked.value == 3)
    }

    /// Counts calls.
    final class Counter: Sendable {
        private let count = Mutex(0)
        func increment() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }
}
