import Foundation
import Stratus
import StratusDigest
import StratusTestSupport
import Testing

@testable import StratusS3

/// What the adapter relies on from each S3 server (moto and Ceph), what it measures of them, and
/// its integrity checks.
@Suite struct S3BehaviourTests {
    /// A raw `PutObject`, bypassing the adapter's own checks.
    func rawPut(_ service: S3Service, key: String, _ data: Data, headers: [(String, String)] = []) async throws {
        _ = try await service.transport.send(
            S3Transport.Request(
                method: .put, key: key, headers: headers, body: .bytes(data),
                payloadHash: Hex.encode(Digest.sha256(data)), action: "PutObject"),
            repetition: .onlyWhenRefused
        )
    }

    @Test(
        "a download whose content does not match the recorded SHA-256 is refused and leaves the destination alone",
        arguments: S3TestServer.allCases)
    func corruptContentIsRefused(server: S3TestServer) async throws {
        let service = try await server.makeService(bucket: MotoServer.uniqueBucket("corrupt"))
        let path = try RemotePath("bad.bin")
        let lie = Hex.encode(Digest.sha256(Data("something else".utf8)))
        try await rawPut(
            service, key: service.key(for: path), Data("actual bytes".utf8),
            headers: [("x-amz-meta-stratus-sha256", lie)])
        let temporaryFolder = try TemporaryFolder(prefix: "stratus-s3")
        defer { temporaryFolder.remove() }
        let folder = temporaryFolder.url
        let destination = folder.appending(path: "keep.bin")
        try Data("precious".utf8).write(to: destination)
        // Passing would mean: the corrupt download was accepted.
        await expectServiceError(.integrityMismatch) {
            _ = try await service.download(path, to: destination)
        }
        #expect(try Data(contentsOf: destination) == Data("precious".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["keep.bin"])
    }

    @Test(
        "an object written by another tool has no hash but downloads checked against its MD5 ETag",
        arguments: S3TestServer.allCases)
    func foreignObject(server: S3TestServer) async throws {
        let service = try await server.makeService(bucket: MotoServer.uniqueBucket("foreign"))
        let path = try RemotePath("other/tool.txt")
        let data = Data("written elsewhere".utf8)
        try await rawPut(service, key: service.key(for: path), data, headers: [("x-amz-meta-owner", "someone")])
        let described = try await service.metadata(of: path)
        #expect(described.contentHash == nil)
        #expect(described.metadata == ["owner": "someone"])
        let temporaryFolder = try TemporaryFolder(prefix: "stratus-s3")
        defer { temporaryFolder.remove() }
        let folder = temporaryFolder.url
        _ = try await service.download(path, to: folder.appending(path: "copy.txt"))
        #expect(try Data(contentsOf: folder.appending(path: "copy.txt")) == data)
    }

    @Test(
        "a root prefix keeps the remote to its keys and hides the adapter's own records",
        arguments: S3TestServer.allCases)
    func rootPrefix(server: S3TestServer) async throws {
        let bucket = MotoServer.uniqueBucket("root")
        let inside = try await server.makeService(bucket: bucket, root: "games/one")
        let outside = try await server.makeService(bucket: bucket)
        _ = try await inside.upload(from: .bytes(Data("a".utf8)), to: try RemotePath("save.json"))
        _ = try await outside.upload(from: .bytes(Data("b".utf8)), to: try RemotePath("elsewhere.json"))
        let listedInside = try await inside.list(.root).map(\.path.string)
        #expect(listedInside == ["save.json"])
        #expect(Set(try await outside.list(.root).map(\.path.string)) == ["games/one/save.json", "elsewhere.json"])
        await #expect(throws: ServiceError.self) {
            try await inside.upload(from: .bytes(Data()), to: try RemotePath(".stratus/uploads/x.json"))
        }
    }

    @Test(
        "a missing bucket is a configuration error, and versioning = on refuses an unversioned bucket",
        arguments: S3TestServer.allCases)
    func bucketProblems(server: S3TestServer) async throws {
        try server.requireInstalled()
        let endpoint = try await server.endpoint()
        let missing = try S3Service(
            configuration: MotoServer.configuration(endpoint: endpoint, bucket: MotoServer.uniqueBucket("none")),
            credentials: server.credentials)
        do {
            _ = try await missing.metadata(of: try RemotePath("x"))
            Issue.record("a missing bucket was not reported")
        } catch let error as ServiceError {
            #expect(error.code == .invalidConfiguration || error.code == .notFound)
        }
        var configuration = try MotoServer.configuration(endpoint: endpoint, bucket: MotoServer.uniqueBucket("plain"))
        configuration.versioning = .required
        let plain = try S3Service(configuration: configuration, credentials: server.credentials)
        try await MotoServer.createBucket(plain)
        // Passing would mean: an unversioned bucket was accepted with versioning = on.
        await expectServiceError(.unsupported) {
            _ = try await plain.latestChangeToken()
        }
    }

    @Test(
        "versioning = off: versions are ETags, preconditions still hold, no history", arguments: S3TestServer.allCases)
    func withoutVersioning(server: S3TestServer) async throws {
        let service = try await server.makeService(bucket: MotoServer.uniqueBucket("off"), versioning: .off)
        #expect(service.capabilities.supportsVersions == false)
        #expect(service.capabilities.changeFeed == .unavailable)
        let path = try RemotePath("slot.json")
        let first = try await service.upload(from: .bytes(Data("one".utf8)), to: path)
        #expect(first.version.rawValue == Hex.encode(Digest.md5(Data("one".utf8))))
        let second = try await service.upload(
            from: .bytes(Data("two".utf8)), to: path, options: UploadOptions(precondition: .mustMatch(first.version)))
        await #expect(throws: ServiceError.self) {
            try await service.upload(
                from: .bytes(Data("stale".utf8)), to: path,
                options: UploadOptions(precondition: .mustMatch(first.version)))
        }
        #expect(try await service.metadata(of: path).version == second.version)
        // Passing would mean: versions(of:) worked without versioning.
        await expectServiceError(.unsupported) {
            _ = try await service.versions(of: path)
        }
    }

    @Test(
        "restore carries the old version's hash and custom metadata into a new version",
        arguments: S3TestServer.allCases)
    func restoreKeepsMetadata(server: S3TestServer) async throws {
        let service = try await server.makeService(bucket: MotoServer.uniqueBucket("restore"))
        let path = try RemotePath("slot.json")
        let first = try await service.upload(
            from: .bytes(Data("first".utf8)), to: path, options: UploadOptions(metadata: ["slot": "1"]))
        _ = try await service.upload(
            from: .bytes(Data("second".utf8)), to: path, options: UploadOptions(metadata: ["slot": "2"]))
        let restored = try await service.restore(path, to: first.version)
        #expect(restored.metadata == ["slot": "1"])
        #expect(restored.contentHash == first.contentHash)
        #expect(restored.version != first.version)
        #expect(try await service.versions(of: path).count == 3)
    }
}

/// What only moto does.
@Suite(.enabled(if: MotoServer.shouldRun, MotoServer.skipReason))
struct MotoBehaviourTests {
    /// moto honours `If-None-Match: *` on CompleteMultipartUpload, as S3 does. It ignores
    /// `If-Match` there (S3 honours it), so a stale mustMatch on a multipart upload is caught
    /// only by the adapter's HeadObject check against moto, atomically only on S3.
    @Test("a multipart upload racing a creation with mustNotExist is refused at completion")
    func multipartMustNotExistIsAtomic() async throws {
        let service = try await MotoServer.makeService(bucket: MotoServer.uniqueBucket("mpcond"))
        let path = try RemotePath("race.bin")
        let key = service.key(for: path)
        let part = Data(repeating: 7, count: 1024)
        let created = try await service.transport.sendXML(
            S3Transport.Request(method: .post, key: key, query: [("uploads", "")], action: "CreateMultipartUpload"),
            repetition: .safe
        )
        let uploadID = try #require(created.value("UploadId"))
        let sent = try await service.transport.send(
            S3Transport.Request(
                method: .put, key: key, query: [("partNumber", "1"), ("uploadId", uploadID)], body: .bytes(part),
                payloadHash: Hex.encode(Digest.sha256(part)), action: "UploadPart"),
            repetition: .safe
        )
        let etag = try #require(sent.headers["ETag"])
        _ = try await service.upload(from: .bytes(Data("the winner".utf8)), to: path)
        let body = Data(
            "<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>\(etag)</ETag></Part></CompleteMultipartUpload>"
                .utf8)
        // Passing would mean: CompleteMultipartUpload with If-None-Match: * over an existing key was accepted.
        await expectServiceError(.conflict) {
            _ = try await service.transport.send(
                S3Transport.Request(
                    method: .post, key: key, query: [("uploadId", uploadID)], headers: [("If-None-Match", "*")],
                    body: .bytes(body), payloadHash: Hex.encode(Digest.sha256(body)), action: "CompleteMultipartUpload"),
                repetition: .onlyWhenRefused
            )
        }
        let temporaryFolder = try TemporaryFolder(prefix: "stratus-s3")
        defer { temporaryFolder.remove() }
        let folder = temporaryFolder.url
        _ = try await service.download(path, to: folder.appending(path: "x"))
        #expect(try Data(contentsOf: folder.appending(path: "x")) == Data("the winner".utf8))
    }
}
