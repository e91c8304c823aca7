import Foundation
import MockSupport
import Stratus
import StratusDrive
import StratusTestSupport
import Testing

/// What the adapter puts on the wire, read back from the mock's request log.
@Suite struct MockWireTests {
    private static let filesPath = "/drive/v3/files"
    private static let uploadPath = "/upload/drive/v3/files"

    @Test func smallUploadIsOneMultipartCreateThenAnUpdate() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService()
            let path = try RemotePath("doc.txt")
            let first = try await service.upload(from: .bytes(Data("one".utf8)), to: path)
            let log = fixture.server.requestLog
            let creates = log.entries(path: Self.uploadPath)
            #expect(creates.count == 1)
            let create = try #require(creates.first)
            #expect(create.method == "POST")
            #expect(create.queryValue("uploadType") == "multipart")
            let fields = try #require(create.queryValue("fields"))
            for field in ["id", "md5Checksum", "headRevisionId", "size", "appProperties"] {
                #expect(fields.split(separator: ",").contains(Substring(field)))
            }
            #expect(create.header("content-type")?.hasPrefix("multipart/related; boundary=") == true)

            // The lookup before the write: the name in the root folder, untrashed, in the
            // application data space.
            let lookup = try #require(
                log.entries(path: Self.filesPath).last {
                    $0.method == "GET" && $0.queryValue("q")?.contains("name = ") == true
                })
            let rootID = fixture.server.appDataFolderID
            #expect(lookup.queryValue("q") == "'\(rootID)' in parents and name = 'doc.txt' and trashed = false")
            #expect(lookup.queryValue("spaces") == "appDataFolder")
            #expect(lookup.queryValue("fields")?.hasPrefix("nextPageToken,files(") == true)

            let second = try await service.upload(
                from: .bytes(Data("two".utf8)), to: path,
                options: UploadOptions(precondition: .mustMatch(first.version)))
            #expect(second.version != first.version)
            #expect(second.id == first.id)
            let update = try #require(log.entries(path: "\(Self.uploadPath)/\(first.id)").last)
            #expect(update.method == "PATCH")
            #expect(update.queryValue("uploadType") == "multipart")
        }
    }

    @Test func largeUploadIsAResumableSessionOfWholeChunks() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService()
            let size = 2 * 262_144 + 1000
            let bytes = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 13) })
            let seen = ProgressLog()
            let file = try await service.upload(
                from: .bytes(bytes), to: try RemotePath("big/blob.bin"),
                options: UploadOptions(progress: { seen.add($0.completedBytes) }))
            #expect(file.size == Int64(size))
            let log = fixture.server.requestLog
            let initiation = try #require(log.entries(path: Self.uploadPath).first { $0.method == "POST" })
            #expect(initiation.queryValue("uploadType") == "resumable")
            #expect(initiation.header("x-upload-content-length") == String(size))
            let chunks = log.entries { $0.method == "PUT" && $0.path.hasPrefix(Self.uploadPath) }
            #expect(
                chunks.compactMap { $0.header("content-range") } == [
                    "bytes 0-262143/\(size)", "bytes 262144-524287/\(size)", "bytes 524288-\(size - 1)/\(size)",
                ])
            #expect(chunks.map(\.status) == [308, 308, 200])
            let values = seen.values
            #expect(values == values.sorted())
            #expect(values.last == Int64(size))

            let destination = FileManager.default.temporaryDirectory.appending(path: "drive-\(UUID().uuidString).bin")
            defer { try? FileManager.default.removeItem(at: destination) }
            let read = try await service.download(try RemotePath("big/blob.bin"), to: destination)
            #expect(read.contentHash == file.contentHash)
            #expect(try Data(contentsOf: destination) == bytes)
            let media = try #require(log.entries(path: "\(Self.filesPath)/\(file.id)").last)
            #expect(media.queryValue("alt") == "media")
        }
    }

    @Test func revisionsAreListedAndDownloadedByID() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService(pageSize: 2)
            let path = try RemotePath("history.txt")
            var written: [RemoteFile] = []
            for index in 0..<5 {
                written.append(try await service.upload(from: .bytes(Data("content \(index)".utf8)), to: path))
            }
            let versions = try await service.versions(of: path)
            #expect(versions.map(\.id) == written.reversed().map(\.version))
            let log = fixture.server.requestLog
            let pages = log.entries(path: "\(Self.filesPath)/\(written[0].id)/revisions")
            #expect(pages.count == 3)
            #expect(pages.allSatisfy { $0.queryValue("pageSize") == "2" })

            let destination = FileManager.default.temporaryDirectory.appending(path: "drive-\(UUID().uuidString).txt")
            defer { try? FileManager.default.removeItem(at: destination) }
            let old = try await service.download(path, version: written[1].version, to: destination)
            #expect(old.version == written[1].version)
            #expect(try Data(contentsOf: destination) == Data("content 1".utf8))
            let media = try #require(
                log.entries(path: "\(Self.filesPath)/\(written[0].id)/revisions/\(written[1].version.rawValue)").last)
            #expect(media.queryValue("alt") == "media")

            let restored = try await service.restore(path, to: written[1].version)
            #expect(restored.contentHash == old.contentHash)
            #expect(try await service.versions(of: path).count == 6)
        }
    }

    @Test func changeFeedAsksForTheRootsSpaceAndRemovals() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService(pageSize: 3)
            let token = try await service.latestChangeToken()
            #expect(token.rawValue.hasPrefix("v1:"))
            _ = try await service.upload(from: .bytes(Data("x".utf8)), to: try RemotePath("a/b/c.txt"))
            let page = try await service.changes(since: token)
            #expect(page.changes.map(\.path) == [try RemotePath("a/b/c.txt")])
            let request = try #require(fixture.server.requestLog.entries(path: "/drive/v3/changes").last)
            #expect(request.queryValue("spaces") == "appDataFolder")
            #expect(request.queryValue("includeRemoved") == "true")
            #expect(request.queryValue("pageSize") == "3")
            #expect(request.queryValue("fields")?.contains("newStartPageToken") == true)
        }
    }

    @Test func concurrentUploadsCreateANewFolderOnce() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        _ = try await service.upload(
                            from: .bytes(Data("file \(index)".utf8)), to: try RemotePath("shared/deep/f\(index).txt"))
                    }
                }
                try await group.waitForAll()
            }
            let folderCreates = fixture.server.requestLog.entries { $0.method == "POST" && $0.path == Self.filesPath }
            #expect(folderCreates.count == 2)
            #expect(folderCreates.allSatisfy { $0.arguments?.contains("application/vnd.google-apps.folder") == true })
            #expect(try await service.list(try RemotePath("shared")).count == 8)
        }
    }

    @Test func concurrentFirstWritesCreateTheMyDriveRootOnce() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService(root: .folder("Fresh/Root"))
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        _ = try await service.upload(
                            from: .bytes(Data("file \(index)".utf8)), to: try RemotePath("f\(index).txt"))
                    }
                }
                try await group.waitForAll()
            }
            let folderCreates = fixture.server.requestLog.entries { $0.method == "POST" && $0.path == Self.filesPath }
            #expect(folderCreates.count == 2)
            #expect(try await service.list(.root).count == 8)
        }
    }

    @Test func myDriveRootIsCreatedOnceAndDeletesTrash() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService(root: .folder("Games/Saves"))
            #expect(try await service.list(.root).isEmpty)
            let file = try await service.upload(from: .bytes(Data("x".utf8)), to: try RemotePath("slot.json"))
            _ = try await service.upload(from: .bytes(Data("y".utf8)), to: try RemotePath("other.json"))
            let lookups = fixture.server.requestLog.entries { $0.path == Self.filesPath && $0.method == "GET" }
            #expect(lookups.first?.queryValue("q") == "'root' in parents and name = 'Games' and trashed = false")
            #expect(lookups.first?.queryValue("spaces") == "drive")
            #expect(fixture.server.requestLog.entries { $0.method == "POST" && $0.path == Self.filesPath }.count == 2)

            try await service.delete(file.path)
            let trash = try #require(fixture.server.requestLog.entries(path: "\(Self.filesPath)/\(file.id)").last)
            #expect(trash.method == "PATCH")
            #expect(trash.arguments == #"{"trashed":true}"#)
            await #expect(throws: ServiceError.self) { try await service.metadata(of: file.path) }
            // The name is free again at once.
            let again = try await service.upload(
                from: .bytes(Data("z".utf8)), to: file.path, options: UploadOptions(precondition: .mustNotExist))
            #expect(again.id != file.id)
        }
    }
}
