import Foundation
import Stratus
import StratusDigest
import StratusTestSupport
import Synchronization
import Testing

@testable import StratusS3

/// Multipart uploads send their parts several at once, never more than `uploadConcurrency`,
/// against each S3 server (moto and Ceph).
@Suite struct ConcurrentPartsTests {
    /// A service like the server's usual one, with another upload concurrency.
    func service(_ server: S3TestServer, concurrency: Int) async throws -> S3Service {
        let base = try await server.makeService(bucket: MotoServer.uniqueBucket("parts"))
        var configuration = base.configuration
        configuration.uploadConcurrency = concurrency
        return try S3Service(configuration: configuration, credentials: server.credentials)
    }

    @Test(
        "parts go up at most upload_concurrency at once, each once, with progress that only grows to the size",
        arguments: S3TestServer.allCases, [1, 3])
    func partsAtOnce(server: S3TestServer, concurrency: Int) async throws {
        let service = try await service(server, concurrency: concurrency)
        let part = service.configuration.partSize
        let folder = try TemporaryFolder(prefix: "stratus-s3")
        defer { folder.remove() }
        let size = Int(part) * 7 + 1234
        var data = Data(count: size)
        for index in 0..<size { data[index] = UInt8(truncatingIfNeeded: index &* 7 &+ concurrency) }
        let url = folder.url.appending(path: "big.bin")
        try data.write(to: url)
        let reports = MultipartResumeTests.Reports()
        let path = try RemotePath("saves/big.bin")

        service.transport.requestLog.start()
        let written = try await service.upload(
            from: .file(url), to: path, options: UploadOptions(progress: reports.handler))
        let (actions, mostOpen) = service.transport.requestLog.stop()

        let parts = actions.filter { $0.hasPrefix("UploadPart ") }
        #expect(parts.count == 8)
        #expect(Set(parts).count == 8, "each part is sent once: \(parts)")
        #expect(mostOpen <= concurrency, "\(mostOpen) requests were open at once")
        #expect(mostOpen >= 1)
        let values = reports.all
        #expect(values == values.sorted(), "progress never goes backwards")
        #expect(values.last == Int64(size))
        #expect(written.size == Int64(size))
        #expect(written.contentHash?.value == Hex.encode(Digest.sha256(data)))
        let back = folder.url.appending(path: "back.bin")
        _ = try await service.download(path, to: back)
        #expect(try Data(contentsOf: back) == data)
    }
}
