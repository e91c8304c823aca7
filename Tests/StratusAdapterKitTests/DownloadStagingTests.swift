import Foundation
import Stratus
import StratusAdapterKit
import StratusDigest
import StratusHTTP
import StratusTestSupport
import Testing

/// `DownloadStaging.commit`: verify, then rename; content that does not match never replaces the
/// destination.
@Suite struct DownloadStagingTests {
    /// A fresh folder for one test, removed afterwards.
    static func withFolder<T>(_ body: (URL) throws -> T) throws -> T {
        let temporaryFolder = try TemporaryFolder(prefix: "kit-staging")
        defer { temporaryFolder.remove() }
        let folder = temporaryFolder.url
        return try body(folder)
    }

    /// An answer as `.resumableFile(staging.temporary)` gives it, after writing `content` there.
    static func received(_ content: Data, into staging: DownloadStaging) throws -> StratusHTTPResponse {
        try content.write(to: staging.temporary)
        return StratusHTTPResponse(
            status: 200, headers: [:], body: Data(), file: staging.temporary, bodyLength: Int64(content.count),
            bodyDigests: [.sha256: Hex.encode(try Digest.compute(.sha256, over: content))], requestBodyDigests: [:],
            connection: ConnectionInfo(reused: false, httpVersion: "HTTP/1.1")
        )
    }

    @Test func matchingContentReplacesTheDestination() throws {
        try Self.withFolder { folder in
            let destination = folder.appending(path: "save.json")
            try Data("old".utf8).write(to: destination)
            let content = Data("new content".utf8)
            let staging = try DownloadStaging(for: destination, service: "test")
            defer { staging.discard() }
            let response = try Self.received(content, into: staging)
            try staging.commit(
                response, .sha256, expected: Hex.encode(try Digest.compute(.sha256, over: content)),
                size: Int64(content.count),
                path: try RemotePath("save.json"), service: "Test", digestName: "SHA-256"
            )
            #expect(try Data(contentsOf: destination) == content)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["save.json"])
        }
    }

    @Test func contentThatDoesNotMatchLeavesTheDestinationAlone() throws {
        try Self.withFolder { folder in
            let destination = folder.appending(path: "save.json")
            try Data("old".utf8).write(to: destination)
            let staging = try DownloadStaging(for: destination, service: "test")
            let response = try Self.received(Data("damaged".utf8), into: staging)
            let wrongHash = Hex.encode(try Digest.compute(.sha256, over: Data("intended".utf8)))
            let error = #expect(throws: ServiceError.self) {
                try staging.commit(
                    response, .sha256, expected: wrongHash, size: 7, path: try RemotePath("save.json"), service: "Test",
                    digestName: "SHA-256")
            }
            #expect(error?.code == .integrityMismatch)
            let sizeError = #expect(throws: ServiceError.self) {
                try staging.commit(
                    response, .sha256, expected: response.bodyDigests[.sha256] ?? "", size: 8,
                    path: try RemotePath("save.json"), service: "Test", digestName: "SHA-256")
            }
            #expect(sizeError?.code == .integrityMismatch)
            staging.discard()
            #expect(try Data(contentsOf: destination) == Data("old".utf8))
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["save.json"])
        }
    }
}
