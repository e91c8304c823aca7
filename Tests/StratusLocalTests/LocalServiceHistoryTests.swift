import Foundation
import Stratus
import StratusLocal
import StratusTestSupport
import Testing

@Suite struct LocalServiceHistoryTests {
    @Test func theVersionCapPrunesTheOldest() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-local-tests")
        defer { folder.remove() }
        let service = try folder.service(maximumVersions: 3)
        let path = try RemotePath("save.json")
        var written: [RemoteFile] = []
        for index in 1...5 {
            written.append(try await service.upload(from: .bytes(Data("version \(index)".utf8)), to: path))
        }

        let versions = try await service.versions(of: path)
        #expect(versions.map(\.id) == [written[4].version, written[3].version, written[2].version])
        await expectServiceError(.notFound) {
            try await service.download(path, version: written[0].version, to: folder.file("old"))
        }
        await expectServiceError(.notFound) { try await service.restore(path, to: written[1].version) }

        // The pruned contents are gone from the disk too.
        let kept = try FileManager.default.contentsOfDirectory(
            atPath: folder.root.appending(path: ".stratus/versions").path)
        #expect(kept.count == 1)
        let contents = try FileManager.default.contentsOfDirectory(
            atPath: folder.root.appending(path: ".stratus/versions/\(kept[0])").path)
        #expect(contents.sorted() == ["3", "4", "5"])
    }

    @Test func aDeletedFileKeepsItsVersionsAndCanBeRestored() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-local-tests")
        defer { folder.remove() }
        let service = try folder.service()
        let path = try RemotePath("saves/slot.json")
        let first = try await service.upload(
            from: .bytes(Data("first".utf8)), to: path, options: UploadOptions(metadata: ["slot": "1"]))
        let second = try await service.upload(from: .bytes(Data("second".utf8)), to: path)
        try await service.delete(path)

        await expectServiceError(.notFound) { try await service.metadata(of: path) }
        #expect(try await service.list(.root).isEmpty)
        #expect(try await service.versions(of: path).map(\.id) == [second.version, first.version])
        let old = try await service.download(path, version: first.version, to: folder.file("old"))
        #expect(old.version == first.version)
        #expect(try Data(contentsOf: folder.file("old")) == Data("first".utf8))

        let restored = try await service.restore(path, to: first.version)
        #expect(restored.id == first.id)
        #expect(restored.metadata == ["slot": "1"])
        #expect(try await service.versions(of: path).map(\.id) == [restored.version, second.version, first.version])
        #expect(try Data(contentsOf: folder.root.appending(path: "saves/slot.json")) == Data("first".utf8))
    }

    @Test func versionNumbersAreNeverReusedAcrossADelete() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-local-tests")
        defer { folder.remove() }
        let service = try folder.service()
        let path = try RemotePath("a.txt")
        let first = try await service.upload(from: .bytes(Data("same".utf8)), to: path)
        try await service.delete(path)
        let second = try await service.upload(
            from: .bytes(Data("same".utf8)), to: path, options: UploadOptions(precondition: .mustNotExist))
        #expect(first.version != second.version)
        #expect(first.id == second.id)
    }

    @Test func damagedVersionContentIsAnIntegrityMismatchAndLeavesTheDestination() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-local-tests")
        defer { folder.remove() }
        let service = try folder.service()
        let uploaded = try await service.upload(
            from: .bytes(Data("the real content".utf8)), to: try RemotePath("a.txt"))

        let versions = folder.root.appending(path: ".stratus/versions")
        let key = try FileManager.default.contentsOfDirectory(atPath: versions.path)[0]
        let content = versions.appending(path: "\(key)/\(uploaded.version.rawValue)")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: content.path)
        try Data("the fake content".utf8).write(to: content)

        let destination = folder.file("destination")
        try Data("keep me".utf8).write(to: destination)
        await expectServiceError(.integrityMismatch) {
            try await service.download(try RemotePath("a.txt"), to: destination)
        }
        #expect(try Data(contentsOf: destination) == Data("keep me".utf8))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == ["destination", "root"])
    }

    @Test func aCancelledUploadLeavesNothingInStaging() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-local-tests")
        defer { folder.remove() }
        let service = try folder.service()
        let source = folder.file("big.bin")
        try Data(count: 8 * 1_048_576).write(to: source)
        let path = try RemotePath("big.bin")

        // The progress handler cancels the upload itself after its first piece, so the cancel
        // lands midway whatever the machine's speed.
        let handle = TaskHandle()
        let upload = Task {
            try await service.upload(
                from: .file(source), to: path, options: UploadOptions(progress: { _ in handle.cancel() }))
        }
        handle.set(upload)
        let result = await upload.result
        #expect(throws: ServiceError.self) { try result.get() }
        if case .failure(let error as ServiceError) = result {
            #expect(error.code == .cancelled)
        }
        let staging = try FileManager.default.contentsOfDirectory(
            atPath: folder.root.appending(path: ".stratus/staging").path)
        #expect(staging.isEmpty)
        await expectServiceError(.notFound) { try await service.metadata(of: path) }
        #expect(try await service.list(.root).isEmpty)
    }

    @Test func staleLeftoversOfACrashAreRemovedOnOpen() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-local-tests")
        defer { folder.remove() }
        _ = try folder.service()
        let staging = folder.root.appending(path: ".stratus/staging")
        let old = staging.appending(path: "crashed.version")
        let fresh = staging.appending(path: "running.version")
        try Data("old".utf8).write(to: old)
        try Data("fresh".utf8).write(to: fresh)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -2 * 86_400)], ofItemAtPath: old.path)

        _ = try folder.service()
        #expect(try FileManager.default.contentsOfDirectory(atPath: staging.path) == ["running.version"])
    }

    @Test func anAlreadyCancelledDeleteChangesNothing() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-local-tests")
        defer { folder.remove() }
        let service = try folder.service()
        let path = try RemotePath("keep.txt")
        _ = try await service.upload(from: .bytes(Data("kept".utf8)), to: path)
        let delete = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await service.delete(path)
        }
        await expectServiceError(.cancelled) { try await delete.value }
        #expect(try await service.metadata(of: path).size == 4)
    }
}
