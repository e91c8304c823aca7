import Foundation
import Stratus
import StratusDigest
import StratusSync
import SyncSimulation
import Testing

/// A blob's name is its content's SHA-256, which anyone can compute: another writer can plant
/// wrong content under the name of a file a record is about to name. The owner's push checks
/// a blob that is already there and replaces wrong content before the record document that
/// names it is written, so every other device reads the record instead of quarantining it.
@Suite struct SquattedBlobTests {
    @Test(arguments: [false, true])
    func aSquattedBlobIsReplacedBeforeTheRecordNamesIt(sameSize: Bool) async throws {
        let harness = try SyncHarness()
        defer { harness.remove() }
        let a = try harness.device("a")
        let b = try harness.device("b")
        let content = "the real thumbnail"
        let digest = SHA256Digest()
        Data(content.utf8).withUnsafeBytes { digest.update($0) }
        let hash = digest.finalizeHex()
        let planted = sameSize ? String(repeating: "x", count: content.utf8.count) : "wrong"
        let blob = try RemotePath("stratus-sync/blobs/\(hash.prefix(2))/\(hash)")
        _ = try await harness.remote.upload(from: .bytes(Data(planted.utf8)), to: blob)

        try a.save(Save(level: 4), as: key("slot-1"), files: ["thumbnail": harness.file("thumb.png", content)])
        let pushed = try await a.sync()
        #expect(pushed.failures.isEmpty)

        let pulled = try await b.sync()
        #expect(pulled.failures.isEmpty, "\(pulled.failures)")
        #expect(try text(of: b.record(key("slot-1")), "thumbnail") == content)
        #expect(b.status.isNeedingAttention == false)
        // The planted content is kept in the blob's history, not lost.
        #expect(try await harness.remote.versions(of: blob).count == 2)
    }
}

extension SyncStatus {
    fileprivate var isNeedingAttention: Bool {
        if case .needsAttention = self { return true }
        return false
    }
}
