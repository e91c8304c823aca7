import Foundation
import Stratus
import SyncSimulation
import Testing

@testable import StratusSync

/// A record document far larger than any this library accepts (16 MiB) costs neither the
/// download nor the disk: a listed size over the limit is refused before any byte is fetched,
/// and a download with no listed size is stopped just past the limit.
@Suite struct OversizedDocumentTests {
    @Test func aDocumentListedLargerThanTheLimitIsQuarantinedWithoutADownload() async throws {
        let harness = try SyncHarness()
        defer { harness.remove() }
        let a = try harness.device("a")
        let b = try harness.device("b")
        try a.save(Save(level: 1), as: key("huge"))
        try a.save(Save(level: 1), as: key("good"))
        try await a.sync()
        try await b.sync()
        let oversized = Data(repeating: 0x20, count: 20 * 1_048_576)
        _ = try await harness.remote.upload(from: .bytes(oversized), to: harness.documentPath("save", "huge"))
        try a.save(Save(level: 2), as: key("good"))
        try await a.sync()

        harness.remote.resetCounts()
        let report = try await b.sync()

        #expect(report.pulled == [try key("good")])
        #expect(report.failures.map(\.key) == [try key("huge")])
        #expect(report.failures.first?.error.code == .invalidDocument)
        // One download: the good document. The oversized one was refused by its listed size.
        #expect(harness.remote.counts["download", default: 0] == 1)
        #expect(try b.record(key("huge"))?.decode(Save.self).level == 1, "the last good value is kept")
    }

    @Test func aDownloadIsStoppedJustPastItsLimit() async throws {
        let harness = try SyncHarness()
        defer { harness.remove() }
        let path = try RemotePath("big.bin")
        _ = try await harness.remote.upload(from: .bytes(Data(repeating: 7, count: 32 * 1_048_576)), to: path)
        let staged = harness.folder.appending(path: "staged")
        let remote = harness.remote

        let error = await #expect(throws: BoundedDownload.Exceeded.self) {
            _ = try await BoundedDownload.run(limit: 1_048_576) { options in
                try await remote.download(path, version: nil, to: staged, options: options)
            }
        }
        // Stopped within a few buffers of the limit, not after the 32 MiB.
        #expect((error?.received ?? .max) < 8 * 1_048_576, "\(error?.received ?? -1) bytes")
        #expect(!FileManager.default.fileExists(atPath: staged.path(percentEncoded: false)))
    }
}
