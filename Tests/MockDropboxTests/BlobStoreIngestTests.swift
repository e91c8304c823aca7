import Foundation
import Hummingbird
import NIOCore
import StratusDigest
import StratusTestSupport
import Testing

@testable import MockSupport

/// `BlobStore.ingest`: small bodies in memory, long ones through a scratch file, the same blob
/// either way, the limit kept, and nothing left in the scratch folder.
@Suite struct BlobStoreIngestTests {
    /// A body delivered in pieces of at most `piece` bytes.
    private func body(_ bytes: [UInt8], piece: Int) -> RequestBody {
        let (stream, continuation) = AsyncStream.makeStream(of: ByteBuffer.self)
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + piece)
            continuation.yield(ByteBuffer(bytes: bytes[offset..<end]))
            offset = end
        }
        continuation.finish()
        return RequestBody(asyncSequence: stream)
    }

    @Test(arguments: [0, 1, 4096, BlobStore.inMemoryLimit, BlobStore.inMemoryLimit + 1, 300_000])
    func storesTheBytesUnderTheirHashes(size: Int) async throws {
        let folder = try TemporaryFolder(prefix: "stratus-blobs")
        defer { folder.remove() }
        let store = try BlobStore(root: folder.url)
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8) }
        for _ in 0..<2 {
            let info = try #require(try await store.ingest(body(bytes, piece: 10_000), limit: 1 << 20))
            #expect(info.size == Int64(size))
            #expect(info.sha256 == Hex.encode(Digest.sha256(Data(bytes))))
            #expect(info.md5 == Hex.encode(Digest.md5(Data(bytes))))
            #expect(try Data(contentsOf: store.url(ofBlob: info.sha256)) == Data(bytes))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.scratchDirectory.path).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.blobsDirectory.path).count == 1)
    }

    @Test(arguments: [1000, 200_000])
    func aBodyPastTheLimitStoresNothing(size: Int) async throws {
        let folder = try TemporaryFolder(prefix: "stratus-blobs")
        defer { folder.remove() }
        let store = try BlobStore(root: folder.url)
        let info = try await store.ingest(body([UInt8](repeating: 1, count: size), piece: 4096), limit: 999)
        #expect(info == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.scratchDirectory.path).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.blobsDirectory.path).isEmpty)
    }
}
