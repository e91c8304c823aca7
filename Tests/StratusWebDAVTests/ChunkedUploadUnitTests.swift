import Foundation
import Stratus
import Testing

@testable import StratusWebDAV

/// The decisions of Nextcloud's chunked upload, without a server: the chunk layout, what a
/// resumed upload sends, the requests' headers, and the options.
@Suite struct ChunkedUploadUnitTests {
    private func options(_ extra: [String: String]) -> RemoteOptions {
        RemoteOptions(
            remoteName: "cloud", typeName: "webdav",
            values: [
                "url": "https://cloud.example.com/remote.php/dav/files/alice/Saves", "user": "alice",
                "password": "pw-123456", "vendor": "nextcloud",
            ].merging(extra) { $1 })
    }

    @Test func chunksCoverTheContentInOrder() {
        let plan = NextcloudChunkPlan(totalSize: 25, chunkSize: 10)
        #expect(plan.chunks.map(\.number) == [1, 2, 3])
        #expect(plan.chunks.map(\.range) == [0..<10, 10..<20, 20..<25])
        #expect(plan.chunks.map(\.name) == ["00001", "00002", "00003"])
        #expect(NextcloudChunkPlan(totalSize: 20, chunkSize: 10).chunks.map(\.range) == [0..<10, 10..<20])
        #expect(NextcloudChunkPlan(totalSize: 10, chunkSize: 10).chunks.map(\.range) == [0..<10])
        #expect(NextcloudChunkPlan(totalSize: 0, chunkSize: 10).chunks.map(\.range) == [0..<0])
    }

    @Test func chunksGrowToKeepWithinTenThousand() {
        let plan = NextcloudChunkPlan(totalSize: 100_001, chunkSize: 1)
        #expect(plan.chunkSize == 11)
        #expect(plan.chunks.count <= NextcloudChunkPlan.largestChunkNumber)
        #expect(plan.chunks.last?.range.upperBound == 100_001)
        #expect(plan.chunks.last?.name == "09091")
        let exact = NextcloudChunkPlan(totalSize: 100_000, chunkSize: 1)
        #expect(exact.chunkSize == 10)
        #expect(exact.chunks.count == 10_000)
        #expect(exact.chunks.last?.name == "10000")
        let huge = NextcloudChunkPlan(totalSize: Int64.max, chunkSize: 10 * 1_048_576)
        #expect(huge.chunks.count <= NextcloudChunkPlan.largestChunkNumber)
        #expect(huge.chunks.last?.range.upperBound == Int64.max)
    }

    @Test func aResumedUploadSendsOnlyMissingAndShortChunks() {
        let plan = NextcloudChunkPlan(totalSize: 35, chunkSize: 10)
        let resumption = plan.resumption(present: ["00001": 10, "00002": 4, "00004": 5, "00007": 10, ".file": 0])
        #expect(resumption.toSend.map(\.number) == [2, 3])
        #expect(resumption.toDelete == ["00007"], "deleting .file would delete the whole upload folder")
        #expect(resumption.keptBytes == 15)
        let fresh = plan.resumption(present: [:])
        #expect(fresh.toSend == plan.chunks)
        #expect(fresh.toDelete.isEmpty)
        #expect(fresh.keptBytes == 0)
        let done = plan.resumption(present: ["00001": 10, "00002": 10, "00003": 10, "00004": 5])
        #expect(done.toSend.isEmpty)
        #expect(done.keptBytes == 35)
    }

    @Test func theTransferIDFollowsTargetContentAndChunkSize() throws {
        let target = try #require(URL(string: "https://cloud.example.com/remote.php/dav/files/alice/Saves/a.bin"))
        let other = try #require(URL(string: "https://cloud.example.com/remote.php/dav/files/alice/Saves/b.bin"))
        let sha = String(repeating: "a", count: 64)
        let id = NextcloudChunkedRequests.transferID(destination: target, totalSize: 30, sha256: sha, chunkSize: 10)
        #expect(id.hasPrefix("stratus-"))
        #expect(id.count == "stratus-".count + 32)
        #expect(
            id == NextcloudChunkedRequests.transferID(destination: target, totalSize: 30, sha256: sha, chunkSize: 10))
        #expect(
            id != NextcloudChunkedRequests.transferID(destination: other, totalSize: 30, sha256: sha, chunkSize: 10))
        #expect(
            id != NextcloudChunkedRequests.transferID(destination: target, totalSize: 31, sha256: sha, chunkSize: 10))
        #expect(
            id
                != NextcloudChunkedRequests.transferID(
                    destination: target, totalSize: 30, sha256: String(repeating: "b", count: 64), chunkSize: 10))
        #expect(
            id != NextcloudChunkedRequests.transferID(destination: target, totalSize: 30, sha256: sha, chunkSize: 11))
    }

    @Test func theUploadFolderIsBesideTheFilesCollection() throws {
        let configuration = try WebDAVConfiguration(
            url: try #require(URL(string: "https://cloud.example.com/nc/remote.php/dav/files/al%20ice/Saves?x=1")),
            credentials: WebDAVCredentials(user: "al ice", password: "pw-123456"), vendor: .nextcloud)
        let folder = try NextcloudChunkedRequests.uploadFolder(configuration, transferID: "stratus-0a")
        #expect(folder.absoluteString == "https://cloud.example.com/nc/remote.php/dav/uploads/al%20ice/stratus-0a/")
    }

    @Test func theAssemblingMoveCarriesSizeTimeChecksumAndPrecondition() throws {
        let target = try #require(URL(string: "https://cloud.example.com/remote.php/dav/files/alice/a.bin"))
        let sha = String(repeating: "c", count: 64)
        func headers(_ condition: NextcloudChunkedRequests.TargetCondition) -> [String: String] {
            Dictionary(
                NextcloudChunkedRequests.assemblyHeaders(
                    destination: target, totalSize: 42, modified: 1_700_000_000, sha256: sha, condition: condition),
                uniquingKeysWith: { $1 })
        }
        let plain = headers(.none)
        #expect(plain["Destination"] == target.absoluteString)
        #expect(plain["OC-Total-Length"] == "42")
        #expect(plain["X-OC-Mtime"] == "1700000000")
        #expect(plain["OC-Checksum"] == "SHA256:" + sha)
        #expect(plain["If-Match"] == nil && plain["If-None-Match"] == nil)
        #expect(headers(.mustNotExist)["If-None-Match"] == "*")
        #expect(headers(.mustMatch(etag: "abc123"))["If-Match"] == "\"abc123\"")
        let chunk = Dictionary(
            NextcloudChunkedRequests.chunkHeaders(destination: target, totalSize: 42), uniquingKeysWith: { $1 })
        #expect(chunk["Destination"] == target.absoluteString)
        #expect(chunk["OC-Total-Length"] == "42")
    }

    @Test func theChecksumIsReadFromTheListOfChecksums() {
        let sha = String(repeating: "d", count: 64)
        #expect(NextcloudChunkedRequests.sha256(inChecksums: "SHA1:abc MD5:def SHA256:\(sha.uppercased())") == sha)
        #expect(NextcloudChunkedRequests.sha256(inChecksums: "sha256:\(sha)") == sha)
        #expect(NextcloudChunkedRequests.sha256(inChecksums: "SHA1:abc ADLER32:01") == nil)
        #expect(NextcloudChunkedRequests.sha256(inChecksums: "") == nil)
    }

    @Test func onlyNextcloudUploadsAboveTheThresholdAreChunked() throws {
        func service(_ extra: [String: String]) throws -> WebDAVService {
            try #require(try WebDAVBackend.makeService(options: options(extra)) as? WebDAVService)
        }
        let nextcloud = try service([:])
        #expect(nextcloud.configuration.chunkedUploadThreshold == 10 * 1_048_576)
        #expect(nextcloud.configuration.chunkSize == 10 * 1_048_576)
        #expect(nextcloud.capabilities.supportsChunkedUpload)
        #expect(nextcloud.capabilities.largestSingleUpload == 10 * 1_048_576)
        #expect(nextcloud.capabilities.chunkSize == 10 * 1_048_576)
        #expect(!NextcloudChunkPlan.isChunked(size: 10 * 1_048_576, configuration: nextcloud.configuration))
        #expect(NextcloudChunkPlan.isChunked(size: 10 * 1_048_576 + 1, configuration: nextcloud.configuration))

        let small = try service(["chunked_upload_above": "1000", "chunk_size": "300"])
        #expect(small.capabilities.largestSingleUpload == 1000)
        #expect(small.capabilities.chunkSize == 300)
        #expect(NextcloudChunkPlan.isChunked(size: 1001, configuration: small.configuration))

        for vendor in ["generic", "owncloud"] {
            let other = try service(["vendor": vendor, "chunked_upload_above": "1000"])
            #expect(!other.capabilities.supportsChunkedUpload)
            #expect(other.capabilities.largestSingleUpload == Int64.max / 2)
            #expect(!NextcloudChunkPlan.isChunked(size: 1 << 40, configuration: other.configuration))
        }
    }

    @Test(arguments: [
        ["chunk_size": "0"], ["chunk_size": "-5"], ["chunk_size": "5368709121"], ["chunk_size": "ten"],
        ["chunked_upload_above": "-1"], ["chunked_upload_above": "1MB"],
    ])
    func badChunkOptionsAreRefusedByName(_ extra: [String: String]) throws {
        let error = try #require(throws: ServiceError.self) {
            _ = try WebDAVBackend.makeService(options: options(extra))
        }
        #expect(error.code == .invalidConfiguration)
        let name = try #require(extra.keys.first)
        #expect(error.message.contains(name))
        #expect(error.message.contains("cloud"))
        #expect(!error.message.contains("pw-123456"))
    }

    @Test func onlyTransientFailuresKeepTheChunks() {
        #expect(WebDAVService.keepsUploadFolder(after: ServiceError(.network, "cut")))
        #expect(WebDAVService.keepsUploadFolder(after: ServiceError(.server, "500")))
        #expect(!WebDAVService.keepsUploadFolder(after: ServiceError(.conflict, "412")))
        #expect(!WebDAVService.keepsUploadFolder(after: ServiceError(.payloadTooLarge, "413")))
        #expect(!WebDAVService.keepsUploadFolder(after: CancellationError()))
    }
}
