import Foundation
import Hummingbird
import MockSupport
import NIOCore
import Stratus
import StratusHTTP
import StratusS3
import Testing

/// A server whose `ListObjectsV2` answer is XML that does not end within anything a client
/// should hold: the adapter stops reading at its 8 MiB memory limit and fails with a clear
/// error, instead of running out of memory.
@Suite struct OversizedAnswerTests {
    static let bucket = "stratus-oversized"

    @Test func endlessListingFailsAsInvalidResponse() async throws {
        // Chunked, so nothing but the body itself tells the client its size; 64 MiB at most of
        // plausible entries.
        let answer = OversizedAnswer(
            head:
                #"<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">"#
                + "<Name>\(Self.bucket)</Name><Prefix></Prefix><IsTruncated>false</IsTruncated>",
            piece: "<Contents><Key>saves/slot.json</Key><Size>1</Size><StorageClass>STANDARD</StorageClass></Contents>",
            total: 64 << 20,
            contentType: "application/xml"
        )
        let router = Router()
        router.get(RouterPath("/" + Self.bucket)) { _, _ in answer.response() }
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
            #expect(
                (error?.underlying as? StratusHTTPClientError)?.code == .bodyTooLarge, "\(String(describing: error))")
            // A broken answer is not a busy server: it is not asked again.
            #expect(answer.requestCount == 1)
        }
        // The client read up to its limit before it hung up.
        #expect(answer.bytesWritten >= 8 * 1_048_576 - 2 * answer.pieceSize)
    }
}
