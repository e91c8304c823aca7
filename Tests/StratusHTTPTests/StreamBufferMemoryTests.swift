import Foundation
import Testing

@testable import StratusHTTP

/// The queue between libcurl and a streamed body's reader holds at most what the reader has not
/// taken: a reader that stays a chunk behind for a whole download must not keep the chunks it
/// already read (found as 225 MiB of RSS for a 1 GiB S3 download, growing with the size).
@Suite struct StreamBufferMemoryTests {
    @Test func aReaderThatStaysOneChunkBehindLeavesNothingReadInTheQueue() async throws {
        let chunkSize = 16 * 1024
        let buffer = StreamBuffer(capacity: 1024 * 1024, resumeWriter: {}, cancelTransfer: {})
        let bytes = [UInt8](repeating: 7, count: chunkSize)
        func offer() -> SinkVerdict { bytes.withUnsafeBytes { buffer.write($0) } }
        guard case .accepted = offer() else {
            Issue.record("the first chunk was not accepted")
            return
        }
        var read = 0
        for _ in 0..<2_000 {
            guard case .accepted = offer() else {
                Issue.record("a chunk was refused although the reader keeps up")
                return
            }
            let chunk = try await buffer.next()
            read += chunk?.count ?? 0
            #expect(buffer.bytesHeld <= 2 * chunkSize)
        }
        #expect(read == 2_000 * chunkSize)
        buffer.finish(failure: nil)
        var rest = 0
        while let chunk = try await buffer.next() { rest += chunk.count }
        #expect(rest == chunkSize)
        #expect(buffer.bytesHeld == 0)
    }
}
