import Foundation
import Stratus
import StratusDigest
import StratusTestSupport
import Synchronization
import Testing

@testable import StratusS3

/// Multipart uploads against each S3 server (moto and Ceph): an interrupted upload resumes from
/// the parts the server already has, a different content starts over, and abandoned uploads are
/// aborted.
@Suite struct MultipartResumeTests {
    let part = MotoServer.minimumPartSize

    /// Cancels a task from its own progress handler once enough bytes have gone.
    final class CancelAfter: Sendable {
        let threshold: Int64
        private let task = Mutex<Task<RemoteFile, any Error>?>(nil)
        private let fired = Mutex(false)

        init(_ threshold: Int64) { self.threshold = threshold }

        func attach(_ task: Task<RemoteFile, any Error>) {
            let cancelNow = fired.withLock { $0 }
            self.task.withLock { $0 = task }
            if cancelNow { task.cancel() }
        }

        var handler: ProgressHandler {
            { [self] progress in
                guard progress.completedBytes >= threshold else { return }
                fired.withLock { $0 = true }
                task.withLock { $0 }?.cancel()
            }
        }
    }

    /// Records the progress reports of an upload.
    final class Reports: Sendable {
        private let values = Mutex<[Int64]>([])
        var handler: ProgressHandler { { [self] progress in values.withLock { $0.append(progress.completedBytes) } } }
        var all: [Int64] { values.withLock { $0 } }
    }

    func makeFile(_ name: String, size: Int, seed: UInt8) throws -> (URL, Data) {
        let folder = try TemporaryFolder(prefix: "stratus-s3").url
        var data = Data(count: size)
        for index in 0..<size { data[index] = UInt8(truncatingIfNeeded: index &* 31 &+ Int(seed)) }
        let url = folder.appending(path: name)
        try data.write(to: url)
        return (url, data)
    }

    func unfinishedUploads(_ service: S3Service, key: String) async throws -> [String] {
        let document = try await service.transport.sendXML(
            S3Transport.Request(
                method: .get, key: nil, query: [("uploads", ""), ("prefix", key)], action: "ListMultipartUploads"),
            repetition: .safe
        )
        return document.children("Upload").filter { $0.value("Key") == key }.compactMap { $0.value("UploadId") }
    }

    func cancelledUpload(_ service: S3Service, _ url: URL, to path: RemotePath, after bytes: Int64) async throws {
        let canceller = CancelAfter(bytes)
        let task = Task {
            try await service.upload(from: .file(url), to: path, options: UploadOptions(progress: canceller.handler))
        }
        canceller.attach(task)
        let result = await task.result
        guard case .failure(let error as ServiceError) = result, error.code == .cancelled else {
            Issue.record("the interrupted upload should end cancelled, but ended \(result)")
            return
        }
    }

    @Test("an interrupted multipart upload resumes from the parts S3 already has", arguments: S3TestServer.allCases)
    func resumesAfterInterruption(server: S3TestServer) async throws {
        let service = try await server.makeService(bucket: MotoServer.uniqueBucket("resume"))
        let (url, data) = try makeFile("big.bin", size: Int(part) * 8, seed: 1)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let path = try RemotePath("saves/big.bin")

        // Parts go up four at once (the default), and progress counts the bytes of the parts in
        // flight too, so at 6 of 8 parts' bytes at least 2 parts are stored.
        try await cancelledUpload(service, url, to: path, after: 6 * part)
        await #expect(throws: ServiceError.self) { try await service.metadata(of: path) }
        let pending = try await unfinishedUploads(service, key: service.key(for: path))
        try #require(pending.count == 1, "one unfinished upload is left to resume, found \(pending.count)")
        let partsThere = try #require(try await service.listParts(key: service.key(for: path), uploadID: pending[0]))
        #expect(partsThere.count >= 2)

        let reports = Reports()
        let file = try await service.upload(
            from: .file(url), to: path, options: UploadOptions(progress: reports.handler))
        #expect(file.size == Int64(data.count))
        #expect(file.contentHash?.value == Hex.encode(Digest.sha256(data)))
        let first = try #require(reports.all.first)
        #expect(
            first >= Int64(partsThere.count) * part,
            "the resumed upload started at \(first) bytes; \(partsThere.count) parts were already there")
        #expect(reports.all.last == Int64(data.count))
        #expect(try await unfinishedUploads(service, key: service.key(for: path)).isEmpty)
        let records = try await service.listVersions(prefix: service.reservedKey(""))
        #expect(records.isEmpty, "the upload record and its versions are removed after completion")

        let destination = url.deletingLastPathComponent().appending(path: "back.bin")
        _ = try await service.download(path, to: destination)
        #expect(try Data(contentsOf: destination) == data)
    }

    @Test("an interrupted upload of other content is aborted, not resumed", arguments: S3TestServer.allCases)
    func otherContentStartsOver(server: S3TestServer) async throws {
        let service = try await server.makeService(bucket: MotoServer.uniqueBucket("restart"))
        let (first, _) = try makeFile("a.bin", size: Int(part) * 6, seed: 2)
        let (second, secondData) = try makeFile("b.bin", size: Int(part) * 6, seed: 3)
        defer {
            try? FileManager.default.removeItem(at: first.deletingLastPathComponent())
            try? FileManager.default.removeItem(at: second.deletingLastPathComponent())
        }
        let path = try RemotePath("slot.bin")
        try await cancelledUpload(service, first, to: path, after: 2 * part)
        let abandoned = try await unfinishedUploads(service, key: service.key(for: path))
        try #require(abandoned.count == 1)

        let reports = Reports()
        let file = try await service.upload(
            from: .file(second), to: path, options: UploadOptions(progress: reports.handler))
        #expect(file.contentHash?.value == Hex.encode(Digest.sha256(secondData)))
        #expect(reports.all.first.map { $0 < part } == true, "nothing of the other content may be reused")
        #expect(
            try await unfinishedUploads(service, key: service.key(for: path)).isEmpty,
            "the other content's upload was aborted")
    }

    /// moto reports the same fixed `Initiated` date (2010-11-10) for every upload, so every
    /// unfinished upload looks abandoned to it; the "too young to abort" half of this rule is
    /// shown against Ceph, which dates uploads truly.
    @Test(
        "unfinished uploads by others of the same key are aborted once older than abandonedUploadAge",
        arguments: S3TestServer.allCases)
    func abandonedUploadsAreAborted(server: S3TestServer) async throws {
        let bucket = MotoServer.uniqueBucket("abandon")
        let service = try await server.makeService(bucket: bucket, abandonedUploadAge: .seconds(3600))
        let path = try RemotePath("big.bin")
        let key = service.key(for: path)
        let created = try await service.transport.sendXML(
            S3Transport.Request(method: .post, key: key, query: [("uploads", "")], action: "CreateMultipartUpload"),
            repetition: .safe
        )
        let foreign = try #require(created.value("UploadId"))
        let other = try await service.transport.sendXML(
            S3Transport.Request(
                method: .post, key: key + ".other", query: [("uploads", "")], action: "CreateMultipartUpload"),
            repetition: .safe
        )
        let otherKey = try #require(other.value("UploadId"))
        #expect(try await unfinishedUploads(service, key: key) == [foreign])
        let (url, _) = try makeFile("big.bin", size: Int(part) * 3, seed: 4)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        _ = try await service.upload(from: .file(url), to: path)
        if server == .ceph {
            #expect(try await unfinishedUploads(service, key: key) == [foreign], "an upload begun just now is kept")
            let eager = try await server.makeService(bucket: bucket, abandonedUploadAge: .zero)
            _ = try await eager.upload(from: .file(url), to: path)
        }
        #expect(try await unfinishedUploads(service, key: key).isEmpty, "the abandoned upload of the key is aborted")
        #expect(
            try await unfinishedUploads(service, key: key + ".other") == [otherKey],
            "an upload of another key is left alone")
    }
}
