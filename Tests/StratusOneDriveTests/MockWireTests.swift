import Foundation
import MockSupport
import Stratus
import StratusTestSupport
import Testing

@testable import StratusOneDrive

/// What the adapter puts on the wire, read back from the mock's request log (both hosts).
@Suite struct MockWireTests {
    private static func content(_ size: Int) -> Data {
        Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
    }

    private static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appending(path: "onedrive-wire-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func theBearerTokenNeverReachesTheContentHost() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService()
            let path = try RemotePath("big/blob.bin")
            let bytes = Self.content(700 * 1024)
            _ = try await service.upload(from: .bytes(bytes), to: path)
            let folder = try Self.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let destination = folder.appending(path: "blob.bin")
            _ = try await service.download(path, to: destination)
            #expect(try Data(contentsOf: destination) == bytes)

            let log = fixture.server.requestLog.entries
            let fragments = log.filter { $0.path.hasPrefix("/upload/") }
            let downloads = log.filter { $0.path.hasPrefix("/download/") }
            #expect(fragments.count == 3)
            #expect(downloads.count == 1)
            for request in fragments + downloads {
                #expect(request.header("authorization") == nil, "\(request.method) \(request.path)")
            }
            for request in log where request.path.hasPrefix("/v1.0/") {
                #expect(request.header("authorization") != nil, "\(request.method) \(request.path)")
            }
            // The content request itself is answered with the redirect.
            let content = try #require(log.last { $0.path.hasSuffix("/content") && $0.method == "GET" })
            #expect(content.status == 302)
        }
    }

    @Test func fragmentsAreWholeMultiplesOf320KiBInOrder() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService(fragmentSize: 2 * OneDriveConfiguration.fragmentUnit)
            let size = 5 * Int(OneDriveConfiguration.fragmentUnit) + 123
            _ = try await service.upload(from: .bytes(Self.content(size)), to: RemotePath("ordered.bin"))
            let ranges = fixture.server.requestLog.entries { $0.method == "PUT" && $0.path.hasPrefix("/upload/") }
                .compactMap { $0.header("content-range") }
            #expect(
                ranges == [
                    "bytes 0-655359/1638523", "bytes 655360-1310719/1638523", "bytes 1310720-1638522/1638523",
                ])
        }
    }

    @Test func theNameClashBehaviourIsAlwaysStated() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService()
            let small = try RemotePath("clash/small.txt")
            let first = try await service.upload(from: .bytes(Data("a".utf8)), to: small)
            let log = fixture.server.requestLog
            let put = try #require(log.entries { $0.method == "PUT" && $0.path.hasSuffix(":/content") }.last)
            #expect(put.queryValue("@microsoft.graph.conflictBehavior") == "replace")
            #expect(put.header("if-match") == nil && put.header("if-none-match") == nil)

            let refused = await #expect(throws: ServiceError.self) {
                try await service.upload(
                    from: .bytes(Data("b".utf8)), to: small, options: UploadOptions(precondition: .mustNotExist))
            }
            #expect(refused?.code == .conflict)
            let conditional = try #require(log.entries { $0.method == "PUT" && $0.path.hasSuffix(":/content") }.last)
            #expect(conditional.queryValue("@microsoft.graph.conflictBehavior") == "fail")
            #expect(conditional.header("if-none-match") == "*")

            _ = try await service.upload(
                from: .bytes(Data("c".utf8)), to: small, options: UploadOptions(precondition: .mustMatch(first.version))
            )
            let matched = try #require(log.entries { $0.method == "PUT" && $0.path.hasSuffix(":/content") }.last)
            #expect(matched.header("if-match")?.isEmpty == false)

            _ = try await service.upload(from: .bytes(Self.content(100 * 1024)), to: try RemotePath("clash/large.bin"))
            let session = try #require(log.entries { $0.path.hasSuffix("/createUploadSession") }.last)
            #expect(session.method == "POST")
            #expect(session.queryValue("@microsoft.graph.conflictBehavior") == "replace")
            let refusedLarge = await #expect(throws: ServiceError.self) {
                try await service.upload(
                    from: .bytes(Self.content(100 * 1024)), to: RemotePath("clash/large.bin"),
                    options: UploadOptions(precondition: .mustNotExist))
            }
            #expect(refusedLarge?.code == .conflict)
            let failing = try #require(log.entries { $0.path.hasSuffix("/createUploadSession") }.last)
            #expect(failing.queryValue("@microsoft.graph.conflictBehavior") == "fail")
            #expect(failing.header("if-none-match") == "*")
        }
    }

    @Test func customMetadataIsRefusedBeforeAnythingIsSent() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService()
            fixture.server.requestLog.clear()
            let error = await #expect(throws: ServiceError.self) {
                try await service.upload(
                    from: .bytes(Data("m".utf8)), to: RemotePath("meta.txt"),
                    options: UploadOptions(metadata: ["k": "v"]))
            }
            #expect(error?.code == .unsupported)
            #expect(fixture.server.requestLog.entries.isEmpty)
        }
    }

    @Test func aKnownVersionIsNotAskedAgainWhileTheCTagStands() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService()
            let path = try RemotePath("cached.txt")
            let written = try await service.upload(from: .bytes(Data("v1".utf8)), to: path)
            let log = fixture.server.requestLog
            log.clear()
            #expect(try await service.metadata(of: path).version == written.version)
            #expect(try await service.list(.root).first?.version == written.version)
            #expect(log.entries { $0.path.hasSuffix("/versions") }.isEmpty)

            // Another client writes: the cTag moves and the version is asked again.
            let other = try fixture.makeService()
            let second = try await other.upload(from: .bytes(Data("v2".utf8)), to: path)
            log.clear()
            #expect(try await service.metadata(of: path).version == second.version)
            #expect(log.entries { $0.path.hasSuffix("/versions") }.count == 1)
        }
    }
}
