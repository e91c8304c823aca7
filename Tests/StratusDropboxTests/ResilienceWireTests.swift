import Foundation
import MockSupport
import Stratus
import StratusDropbox
import Testing

/// How the adapter recovers, read back from the mock's request log: an upload session resumed
/// at the offset Dropbox acknowledges, custom metadata in file properties, and a lost answer
/// that hid a completed upload.
@Suite struct ResilienceWireTests {
    @Test func sessionResumesAtTheOffsetDropboxAcknowledges() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService(root: "/resume", batching: nil)
            // The first append is stored, but its answer is lost: the client sends it again,
            // Dropbox answers incorrect_offset with correct_offset, and the upload goes on
            // from there instead of starting over.
            fixture.server.faults.add(FaultRule(route: "/2/files/upload_session/append_v2", fault: .dropBeforeResponse))
            let chunk = 4 * 1_048_576
            let content = Data((0..<(2 * chunk + 1000)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            let file = try await service.upload(from: .bytes(content), to: try RemotePath("big.bin"))
            #expect(file.size == Int64(content.count))

            let appends = fixture.server.requestLog.entries(path: "/2/files/upload_session/append_v2")
            #expect(appends.map(\.status) == [200, 409, 200])
            let offsets = appends.compactMap { $0.arguments.flatMap(Self.offset) }
            #expect(offsets == [Int64(chunk), Int64(chunk), Int64(2 * chunk)])
            #expect(fixture.server.requestLog.entries(path: "/2/files/upload_session/start").count == 1)

            let destination = FileManager.default.temporaryDirectory.appending(path: "resume-\(UUID().uuidString).bin")
            defer { try? FileManager.default.removeItem(at: destination) }
            _ = try await service.download(file.path, to: destination)
            #expect(try Data(contentsOf: destination) == content)
        }
    }

    @Test func droppedDownloadContinuesWithRange() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService(root: "/range")
            let content = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
            let file = try await service.upload(from: .bytes(content), to: try RemotePath("save.bin"))
            fixture.server.faults.add(FaultRule(route: "/2/files/download", fault: .dropAfterResponseBytes(100_000)))
            let destination = FileManager.default.temporaryDirectory.appending(path: "range-\(UUID().uuidString).bin")
            defer { try? FileManager.default.removeItem(at: destination) }
            let downloaded = try await service.download(file.path, to: destination)
            #expect(downloaded.version == file.version)
            #expect(try Data(contentsOf: destination) == content)

            // The second request asks only for what the first one did not deliver.
            let downloads = fixture.server.requestLog.entries(path: "/2/files/download")
            let ranges = downloads.map { $0.header("Range") }
            #expect(downloads.count == 2)
            #expect(ranges.first == .some(nil))
            let resumedAt = try #require(
                ranges.last.flatMap { $0 }.flatMap { Int($0.dropFirst("bytes=".count).dropLast()) })
            #expect((1...100_000).contains(resumedAt))
            #expect(downloads.last?.status == 206)
        }
    }

    @Test func lostAnswerToAnUploadIsFoundInsteadOfWrittenTwice() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService(root: "/lost", batching: nil)
            fixture.server.faults.add(FaultRule(route: "/2/files/upload", fault: .dropBeforeResponse))
            let path = try RemotePath("new.txt")
            let file = try await service.upload(
                from: .bytes(Data("once".utf8)), to: path, options: UploadOptions(precondition: .mustNotExist))
            #expect(fixture.server.requestLog.entries(path: "/2/files/upload").count == 1)
            #expect(try await service.versions(of: path).map(\.id) == [file.version])
        }
    }

    @Test func customMetadataTravelsInOnePropertyTemplate() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService(root: "/meta", batching: nil)
            let path = try RemotePath("save.json")
            let long = String(repeating: "é", count: 700)
            let metadata = ["slot": "1", "note": long]
            let file = try await service.upload(
                from: .bytes(Data("v1".utf8)), to: path, options: UploadOptions(metadata: metadata))
            #expect(file.metadata == metadata)
            let log = fixture.server.requestLog
            #expect(log.entries(path: "/2/file_properties/templates/add_for_user").count == 1)
            let commit = try #require(log.entries(path: "/2/files/upload").last?.arguments)
            #expect(commit.contains("property_groups"))
            #expect(commit.contains("json1"), "1,400 bytes of é take two pieces of at most 1,024 bytes")

            // A second service finds the template instead of making another.
            let other = try fixture.makeService(root: "/meta")
            #expect(try await other.metadata(of: path).metadata == metadata)
            _ = try await other.upload(
                from: .bytes(Data("v2".utf8)), to: path, options: UploadOptions(metadata: ["slot": "2"]))
            #expect(log.entries(path: "/2/file_properties/templates/add_for_user").count == 1)
            #expect(try await service.metadata(of: path).metadata == ["slot": "2"])

            let tooLarge = ["blob": String(repeating: "x", count: 9 * 1024)]
            let error = await #expect(throws: ServiceError.self) {
                try await service.upload(
                    from: .bytes(Data("v3".utf8)), to: path, options: UploadOptions(metadata: tooLarge))
            }
            #expect(error?.code == .payloadTooLarge)
            #expect(try await service.metadata(of: path).metadata == ["slot": "2"])
        }
    }

    /// The `cursor.offset` of an append's logged arguments.
    private static func offset(_ arguments: String) -> Int64? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(arguments.utf8)) as? [String: Any],
            let cursor = object["cursor"] as? [String: Any]
        else { return nil }
        return (cursor["offset"] as? NSNumber)?.int64Value
    }
}
