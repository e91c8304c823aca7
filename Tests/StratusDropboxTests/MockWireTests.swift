import Foundation
import MockSupport
import Stratus
import StratusDropbox
import StratusTestSupport
import Testing

/// What the adapter puts on the wire, read back from the mock's request log.
@Suite struct MockWireTests {
    @Test func conditionalUploadSendsUpdateWithTheRev() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService(root: "/wire", batching: nil)
            let path = try RemotePath("doc.txt")
            let first = try await service.upload(from: .bytes(Data("one".utf8)), to: path)
            let second = try await service.upload(
                from: .bytes(Data("two".utf8)), to: path,
                options: UploadOptions(precondition: .mustMatch(first.version))
            )
            #expect(second.version != first.version)
            let uploads = fixture.server.requestLog.entries(path: "/2/files/upload")
            let argument = try #require(uploads.last.flatMap { $0.header("dropbox-api-arg") })
            #expect(argument.contains(#""mode":{".tag":"update","update":"\#(first.version.rawValue)"}"#))
            #expect(argument.contains(#""strict_conflict":true"#))
            await #expect(throws: ServiceError.self) {
                try await service.upload(
                    from: .bytes(Data("three".utf8)), to: path,
                    options: UploadOptions(precondition: .mustMatch(first.version)))
            }
            let conflict = try? await service.upload(
                from: .bytes(Data("x".utf8)), to: path, options: UploadOptions(precondition: .mustNotExist))
            #expect(conflict == nil)
        }
    }

    @Test func deleteSendsParentRevAndNeverDeletesAFolder() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService(batching: nil)
            let file = try await service.upload(from: .bytes(Data("x".utf8)), to: try RemotePath("keep/inner.txt"))
            await #expect(throws: ServiceError.self) { try await service.delete(try RemotePath("keep")) }
            #expect(try await service.metadata(of: file.path).version == file.version)
            try await service.delete(file.path, precondition: .mustMatch(file.version))
            let deletes = fixture.server.requestLog.entries(path: "/2/files/delete_v2")
            #expect(deletes.count == 1)
            #expect(deletes.last?.arguments?.contains(file.version.rawValue) == true)
            await #expect(throws: ServiceError.self) { try await service.metadata(of: file.path) }
        }
    }

    @Test func nonASCIINamesSurviveTheHeader() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService(batching: nil)
            let path = try RemotePath("Résumé 📄.txt")
            let file = try await service.upload(from: .bytes(Data("hi".utf8)), to: path)
            #expect(file.path == path)
            let argument = try #require(
                fixture.server.requestLog.entries(path: "/2/files/upload").last.flatMap { $0.header("dropbox-api-arg") }
            )
            // The log shows the argument as the mock decoded it: the escaped header arrived
            // intact (the escaping itself is checked in StoneEncodingTests).
            #expect(argument.contains("/Résumé 📄.txt"))
            let again = try await service.metadata(of: path)
            #expect(again.version == file.version)
        }
    }

    @Test func largeUploadUsesASessionWithHashes() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService(batching: nil)
            let bytes = Data((0..<(9 * 1_048_576)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
            let seen = ProgressLog()
            let file = try await service.upload(
                from: .bytes(bytes), to: try RemotePath("big.bin"),
                options: UploadOptions(progress: { seen.add($0.completedBytes) })
            )
            #expect(file.size == Int64(bytes.count))
            let log = fixture.server.requestLog
            #expect(log.entries(path: "/2/files/upload_session/start").count == 1)
            #expect(log.entries(path: "/2/files/upload_session/append_v2").count == 2)
            #expect(log.entries(path: "/2/files/upload_session/finish").count == 1)
            for entry in log.entries(path: "/2/files/upload_session/append_v2") {
                #expect(entry.header("dropbox-api-arg")?.contains("content_hash") == true)
            }
            let values = seen.values
            #expect(values == values.sorted())
            #expect(values.last == Int64(bytes.count))

            let destination = FileManager.default.temporaryDirectory.appending(path: "dropbox-\(UUID().uuidString).bin")
            defer { try? FileManager.default.removeItem(at: destination) }
            let read = try await service.download(try RemotePath("big.bin"), to: destination)
            #expect(read.contentHash == file.contentHash)
            #expect(try Data(contentsOf: destination) == bytes)
        }
    }
}
