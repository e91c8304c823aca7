import Foundation
import Hummingbird
import MockSupport
import NIOCore
import Stratus
import StratusHTTP
import StratusS3
import Synchronization
import Testing

/// A server whose `ListObjectsV2` answer is XML that does not end within anything a client
/// should hold: the adapter stops reading at its 8 MiB memory limit and fails with a clear
/// error, instead of running out of memory.
@Suite struct OversizedAnswerTests {
    /// What the server managed to hand to the connection, and how often it was asked.
    final class Tally: Sendable {
        let bytesWritten = Atomic<Int>(0)
        let requests = Atomic<Int>(0)
    }

    static let bucket = "stratus-oversized"

    /// About 64 KiB of `<Contents>` entries, each a plausible key.
    static let piece: ByteBuffer = {
        let entry = "<Contents><Key>saves/slot.json</Key><Size>1</Size><StorageClass>STANDARD</StorageClass></Contents>"
        return ByteBuffer(string: String(repeating: entry, count: 64 * 1024 / entry.utf8.count))
    }()

    /// About 64 MiB of pieces in all, eight times what the client keeps. Bounded, because a write
    /// returns once NIO has queued it: after the client hangs up, a few more pieces pile up in
    /// memory before the server hears of it, and a busy machine must not queue gigabytes.
    static let pieces = 64 * 1_048_576 / 65_536

    @Test func endlessListingFailsAsInvalidResponse() async throws {
        let tally = Tally()
        let router = Router()
        router.get(RouterPath("/" + Self.bucket)) { _, _ in
            tally.requests.add(1, ordering: .relaxed)
            // No Content-Length: chunked, so nothing but the body itself tells the client its size.
            return Response(
                status: .ok,
                headers: [.contentType: "application/xml"],
                body: ResponseBody { writer in
                    let head = #"<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">"#
                        + "<Name>\(Self.bucket)</Name><Prefix></Prefix><IsTruncated>false</IsTruncated>"
                    try await writer.write(ByteBuffer(string: head))
                    for _ in 0..<Self.pieces {
                        try await writer.write(Self.piece)
                        tally.bytesWritten.add(Self.piece.readableBytes, ordering: .relaxed)
                    }
                    try await writer.finish(nil)
                }
            )
        }
        try await MockServer.withRunning(router) { url in
            let service = try S3Service(
                configuration: S3Configuration(
                    endpoint: url, region: "us-east-1", bucket: Self.bucket, addressing: .path,
                    retryPolicy: RetryPolicy(maximumAttempts: 3, initialDelay: .milliseconds(10))
                ),
                credentials: S3Credentials(accessKeyID: "AKIDOVERSIZED", secretAccessKey: "not-a-real-secret")
            )
            let error = await #expect(throws: ServiceError.self) {
                _ = try await service.list(.root)
            }
            #expect(error?.code == .invalidResponse, "\(String(describing: error))")
            #expect(error?.message.contains("ListObjectsV2") == true, "\(String(describing: error))")
            // The memory limit ended it, not the unfinished XML (which would also be invalid).
            #expect((error?.underlying as? HTTPClientError)?.code == .bodyTooLarge, "\(String(describing: error))")
            // A broken answer is not a busy server: it is not asked again.
            #expect(tally.requests.load(ordering: .relaxed) == 1)
        }
        // The client read up to its limit before it hung up.
        let written = tally.bytesWritten.load(ordering: .relaxed)
        #expect(written >= 8 * 1_048_576 - 2 * Self.piece.readableBytes, "written \(written)")
    }
}
