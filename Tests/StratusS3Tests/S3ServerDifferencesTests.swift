import Foundation
import Stratus
import StratusDigest
import StratusTestSupport
import Testing

@testable import StratusS3

/// Where the S3 servers differ, measured: which conditions each honours (and so what the
/// adapter declares and sends), which body hashes each checks, and the adapter's ways around
/// the differences.
@Suite struct S3ServerDifferencesTests {
    /// A server and a bucket kind.
    struct Setup: Sendable, CustomTestStringConvertible {
        var server: S3TestServer
        var versioning: S3Configuration.Versioning
        var testDescription: String { "\(server.rawValue), \(versioning == .off ? "unversioned" : "versioned")" }

        /// What the server honours on that kind of bucket (measured by hand with raw requests
        /// first: moto 5, Ceph 16.2.15).
        var expected: S3ConditionSupport {
            switch (server, versioning == .off) {
            case (.moto, _):
                S3ConditionSupport(
                    putIfNoneMatch: true, putIfMatch: .quoted, completeIfNoneMatch: true, completeIfMatch: false,
                    deleteIfMatch: true)
            case (.ceph, true):
                S3ConditionSupport(
                    putIfNoneMatch: true, putIfMatch: .unquoted, completeIfNoneMatch: false, completeIfMatch: false,
                    deleteIfMatch: false)
            case (.ceph, false):
                .none
            }
        }
    }

    static let setups = S3TestServer.allCases.flatMap { server in
        [Setup(server: server, versioning: .enable), Setup(server: server, versioning: .off)]
    }

    @Test(
        "the adapter measures which conditions the server honours, declares it, and leaves no probe behind",
        arguments: setups)
    func conditionSupportIsMeasured(setup: Setup) async throws {
        let service = try await setup.server.makeService(
            bucket: MotoServer.uniqueBucket("probe"), versioning: setup.versioning)
        #expect(service.capabilities.conditionalWrites == .bestEffort, "nothing is proven before the measurement")
        let support = try await service.conditionSupport()
        #expect(support == setup.expected, "measured: \(support)")
        #expect(service.capabilities.conditionalWrites == setup.expected.conditionalWrites)
        let left = try await service.listVersions(prefix: service.reservedKey("probes/"))
        #expect(left.isEmpty, "the probe left \(left.map(\.key))")
        let unfinished = try await service.transport.sendXML(
            S3Transport.Request(method: .get, key: nil, query: [("uploads", "")], action: "ListMultipartUploads"),
            repetition: .safe)
        #expect(unfinished.children("Upload").isEmpty)
    }

    @Test("preconditions hold on every server and bucket kind, whatever the server honours", arguments: setups)
    func preconditionsHold(setup: Setup) async throws {
        let service = try await setup.server.makeService(
            bucket: MotoServer.uniqueBucket("cond"), versioning: setup.versioning)
        let path = try RemotePath("slot.json")
        let first = try await service.upload(
            from: .bytes(Data("first".utf8)), to: path, options: UploadOptions(precondition: .mustNotExist))
        await expectServiceError(.conflict) {
            _ = try await service.upload(
                from: .bytes(Data("second".utf8)), to: path, options: UploadOptions(precondition: .mustNotExist))
        }
        let second = try await service.upload(
            from: .bytes(Data("second".utf8)), to: path, options: UploadOptions(precondition: .mustMatch(first.version))
        )
        await expectServiceError(.conflict) {
            _ = try await service.upload(
                from: .bytes(Data("stale".utf8)), to: path,
                options: UploadOptions(precondition: .mustMatch(first.version)))
        }
        await expectServiceError(.conflict) {
            try await service.delete(path, precondition: .mustMatch(first.version))
        }
        #expect(try await service.metadata(of: path).version == second.version)
        try await service.delete(path, precondition: .mustMatch(second.version))
        await expectServiceError(.notFound) { _ = try await service.metadata(of: path) }
    }

    /// moto ignores `If-Match` on CompleteMultipartUpload and Ceph every condition there, so a
    /// conditional upload of three parts' worth goes up as one PutObject (its ETag is the MD5 of
    /// the content, not `<md5>-3`), and a stale one is refused.
    @Test(
        "a conditional upload above the single-upload limit is one PutObject where completion ignores the condition",
        arguments: S3TestServer.allCases)
    func conditionalUploadAboveTheLimitIsOnePut(server: S3TestServer) async throws {
        let service = try await server.makeService(bucket: MotoServer.uniqueBucket("bigcond"), versioning: .off)
        let path = try RemotePath("big.bin")
        let first = try await service.upload(from: .bytes(Data("small".utf8)), to: path)
        var content = Data(count: Int(3 * MotoServer.minimumPartSize))
        for index in content.indices { content[index] = UInt8(truncatingIfNeeded: index &* 7) }
        let written = try await service.upload(
            from: .bytes(content), to: path, options: UploadOptions(precondition: .mustMatch(first.version)))
        #expect(written.version.rawValue == Hex.encode(Digest.md5(content)), "one PutObject: the ETag is the MD5")
        await expectServiceError(.conflict) {
            _ = try await service.upload(
                from: .bytes(content + Data("more".utf8)), to: path,
                options: UploadOptions(precondition: .mustMatch(first.version)))
        }
        #expect(try await service.metadata(of: path).version == written.version)
    }

    /// Ceph checks both `Content-MD5` (BadDigest) and the signed `x-amz-content-sha256`
    /// (XAmzContentSHA256Mismatch), which the adapter sends with every body; moto checks
    /// neither, so there only the adapter's own comparison of the ETag with the MD5 sent stands.
    @Test("which body hashes the server checks", arguments: S3TestServer.allCases)
    func serverChecksBodyHashes(server: S3TestServer) async throws {
        let service = try await server.makeService(bucket: MotoServer.uniqueBucket("digest"))
        let body = Data("the bytes that arrive".utf8)
        let other = Data("the bytes that were meant".utf8)
        let key = service.key(for: try RemotePath("digest.bin"))
        let wrongMD5 = S3Transport.Request(
            method: .put, key: key, headers: [("Content-MD5", Data(Digest.md5(other)).base64EncodedString())],
            body: .bytes(body), payloadHash: Hex.encode(Digest.sha256(body)), action: "PutObject with a wrong MD5")
        let wrongSHA256 = S3Transport.Request(
            method: .put, key: key, body: .bytes(body), payloadHash: Hex.encode(Digest.sha256(other)),
            action: "PutObject with a wrong SHA-256")
        for request in [wrongMD5, wrongSHA256] {
            var refusal: ServiceError?
            do {
                _ = try await service.transport.send(request, repetition: .never)
            } catch let error as ServiceError {
                refusal = error
            }
            switch server {
            case .ceph:
                #expect(refusal?.code == .integrityMismatch, "\(request.action): \(String(describing: refusal))")
            case .moto: #expect(refusal == nil, "moto checked \(request.action) after all")
            }
        }
    }

    /// Where the server cannot refuse a racing writer (Ceph, versioned: `bestEffort`), several
    /// may win; StratusSync then finds a lost race in the history, which must hold every
    /// winner's version, newest first, the current one on top.
    @Test("on a best-effort bucket every racing winner's version is in the history, the current one first (Ceph)")
    func racingWinnersAreInTheHistory() async throws {
        let service = try await S3TestServer.ceph.makeService(bucket: MotoServer.uniqueBucket("race"))
        #expect(try await service.conditionSupport().conditionalWrites == .bestEffort)
        let path = try RemotePath("slot.json")
        let winners = await withTaskGroup(of: RemoteFile?.self) { group in
            for writer in 0..<8 {
                group.addTask {
                    try? await service.upload(
                        from: .bytes(Data(repeating: UInt8(writer), count: 64 * 1024)), to: path,
                        options: UploadOptions(precondition: .mustNotExist))
                }
            }
            var files: [RemoteFile] = []
            for await file in group { if let file { files.append(file) } }
            return files
        }
        #expect(!winners.isEmpty)
        let history = try await service.versions(of: path)
        #expect(Set(winners.map(\.version)).isSubset(of: Set(history.map(\.id))))
        #expect(try await service.metadata(of: path).version == history.first?.id)
    }

    /// The check reads the version just below the marker in the key's listing, newest first as
    /// S3 and Ceph list them (moto lists delete markers after all versions, but honours `If-Match`
    /// on DeleteObject, so the check never runs there).
    @Test("a delete whose marker lands over a version it did not check is undone (Ceph)")
    func lostDeleteIsUndone() async throws {
        let server = S3TestServer.ceph
        let service = try await server.makeService(bucket: MotoServer.uniqueBucket("undo"))
        let path = try RemotePath("slot.json")
        let first = try await service.upload(from: .bytes(Data("one".utf8)), to: path)
        let second = try await service.upload(from: .bytes(Data("two".utf8)), to: path)
        let deleted = try await service.transport.send(
            S3Transport.Request(method: .delete, key: service.key(for: path), action: "DeleteObject"),
            repetition: .never)
        let marker = try #require(deleted.headers["x-amz-version-id"])
        // The deletion checked `first`, but `second` was written in between.
        await expectServiceError(.conflict) {
            try await service.confirmDeletion(of: path, marker: marker, expected: first.version.rawValue)
        }
        #expect(try await service.metadata(of: path).version == second.version)
        let again = try await service.transport.send(
            S3Transport.Request(method: .delete, key: service.key(for: path), action: "DeleteObject"),
            repetition: .never)
        let kept = try #require(again.headers["x-amz-version-id"])
        try await service.confirmDeletion(of: path, marker: kept, expected: second.version.rawValue)
        await expectServiceError(.notFound) { _ = try await service.metadata(of: path) }
    }
}
