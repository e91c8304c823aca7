import Foundation
import Hummingbird
import MockSupport
import Stratus
import Testing

@testable import StratusWebDAV

/// A Nextcloud server that names what no honest one would (issue 39): an upload folder that
/// lists `.`, `..` and other clients' files, and versions named by times out of any range.
@Suite struct NextcloudHostileServerTests {
    static let root = "/remote.php/dav/files/u/"
    static let uploads = "/remote.php/dav/uploads/u/"

    // MARK: Chunked upload

    /// A server whose upload folder holds chunk 1 of the upload, a stray chunk 9, `.file`, and
    /// names that are no chunks: `.`, `..`, another client's file, and an entry one level down.
    static func foreignNamesServer() -> ScriptedWebDAVServer {
        ScriptedWebDAVServer(rootPath: root) { request in
            switch request.method {
            case "PROPFIND" where request.path.hasPrefix(uploads):
                var folder = request.path
                if !folder.hasSuffix("/") { folder += "/" }
                return ScriptedWebDAVServer.multistatus([
                    .init(href: folder, isFolder: true, etag: "f"),
                    .init(href: folder + "00001", isFolder: false, etag: "c1", size: 8),
                    .init(href: folder + "00009", isFolder: false, etag: "c9", size: 8),
                    .init(href: folder + ".file", isFolder: false, etag: "ff", size: 16),
                    .init(href: folder + ".", isFolder: false, etag: "dot", size: 1),
                    .init(href: folder + "..", isFolder: false, etag: "dotdot", size: 1),
                    .init(href: folder + "other-client-part", isFolder: false, etag: "o", size: 1),
                    .init(href: folder + "sub/00007", isFolder: false, etag: "s", size: 8),
                    .init(href: uploads + "another-transfer/00001", isFolder: false, etag: "a", size: 8),
                ])
            case "DELETE": return ScriptedWebDAVServer.status(204)
            case "PUT", "MOVE": return ScriptedWebDAVServer.status(201)
            default: return ScriptedWebDAVServer.status(404)
            }
        }
    }

    @Test func aResumedUploadDeletesOnlyItsOwnStrayChunks() async throws {
        let server = Self.foreignNamesServer()
        try await server.run { root in
            let service = try ScriptedWebDAVServer.service(
                root, vendor: .nextcloud, chunkedUploadAbove: 8, chunkSize: 8)
            // The file is not there after the MOVE on this server, so the upload ends in an
            // error after the requests looked at here.
            _ = try? await service.upload(
                from: .bytes(Data(repeating: 7, count: 20)), to: try RemotePath("save.bin"), options: UploadOptions())
        }
        let entries = server.requestLog.entries
        let listing = try #require(entries.first { $0.method == "PROPFIND" && $0.path.hasPrefix(Self.uploads) })
        var folder = listing.path.removingPercentEncoding ?? listing.path
        if !folder.hasSuffix("/") { folder += "/" }
        #expect(folder.count > Self.uploads.count + 1, "\(folder)")
        let deleted = entries.filter { $0.method == "DELETE" }.map { $0.path.removingPercentEncoding ?? $0.path }
        #expect(deleted == [folder + "00009"], "DELETEs: \(deleted)")
        let sent = entries.filter { $0.method == "PUT" }.map { $0.path.removingPercentEncoding ?? $0.path }
        #expect(sent == [folder + "00002", folder + "00003"], "chunk 1 is kept; PUTs: \(sent)")
        #expect(server.count("MOVE") == 1)
    }

    @Test func onlyChunkNamesOutsideThePlanAreDeleted() {
        let plan = NextcloudChunkPlan(totalSize: 20, chunkSize: 8)
        let resumption = plan.resumption(present: [
            "00001": 8, "00009": 8, "10000": 1, "10001": 1, "00000": 1, ".": 0, "..": 0, "": 0, ".file": 0,
            "other": 1, "0001": 1, "000001": 1, "-0001": 1, "0000١": 1,
        ])
        #expect(resumption.toDelete == ["00009", "10000"])
        #expect(resumption.toSend.map(\.number) == [2, 3])
        #expect(resumption.keptBytes == 8)
    }

    @Test func thePathBuilderRefusesDotSegmentsAndEmptyNames() throws {
        let folder = try #require(URL(string: "https://cloud.example.com/remote.php/dav/uploads/u/stratus-1/"))
        for bad in [".", "..", ""] {
            let error = #expect(throws: ServiceError.self) { _ = try WebDAVTransport.url(in: folder, named: bad) }
            #expect(error?.code == .invalidResponse)
            let nested = #expect(throws: ServiceError.self) {
                _ = try WebDAVTransport.url(base: "https://h/dav/", components: ["a", bad, "b"], isFolder: false)
            }
            #expect(nested?.code == .invalidResponse)
        }
        #expect(
            try WebDAVTransport.url(in: folder, named: "00001").path() == "/remote.php/dav/uploads/u/stratus-1/00001")
        // Dots inside a name, or a name of three, are names: percent-encoded slashes stay in it.
        #expect(try WebDAVTransport.url(in: folder, named: "...").path() == "/remote.php/dav/uploads/u/stratus-1/...")
        #expect(
            try WebDAVTransport.url(in: folder, named: "../x").absoluteString
                == "https://cloud.example.com/remote.php/dav/uploads/u/stratus-1/..%2Fx")
    }

    // MARK: Version names

    /// A server that lists one file (id 42) whose versions folder holds `names`.
    static func versionsServer(names: [String]) -> ScriptedWebDAVServer {
        ScriptedWebDAVServer(rootPath: root) { request in
            guard request.method == "PROPFIND" else { return ScriptedWebDAVServer.status(405) }
            let versions = "/remote.php/dav/versions/u/versions/42/"
            switch request.path {
            case root + "save.bin":
                return ScriptedWebDAVServer.multistatus([
                    .init(href: root + "save.bin", isFolder: false, etag: "now", size: 3, fileID: "42")
                ])
            case versions, String(versions.dropLast()):
                return ScriptedWebDAVServer.multistatus(
                    [.init(href: versions, isFolder: true, etag: "v")]
                        + names.map { .init(href: versions + $0, isFolder: false, etag: $0, size: 2) })
            default:
                return ScriptedWebDAVServer.status(404)
            }
        }
    }

    @Test(arguments: ["-62135596801", "9223372036854775807", "99999999999999999999", "253402300800", "-1"])
    func aVersionNamedByATimeOutOfRangeIsAnError(name: String) async throws {
        let server = Self.versionsServer(names: ["1764547200", name])
        let error = try await server.run { root in
            await #expect(throws: ServiceError.self) {
                _ = try await ScriptedWebDAVServer.service(root, vendor: .nextcloud).versions(
                    of: try RemotePath("save.bin"))
            }
        }
        #expect(error?.code == .invalidResponse, "\(String(describing: error))")
        #expect(error?.message.contains(name) == true, "\(String(describing: error))")
    }

    @Test func versionsNamedByTimesInRangeAreListed() async throws {
        let server = Self.versionsServer(names: ["1764547200", "0", "253402300799", "not-a-time"])
        let versions = try await server.run { root in
            try await ScriptedWebDAVServer.service(root, vendor: .nextcloud).versions(of: try RemotePath("save.bin"))
        }
        #expect(versions.dropFirst().map(\.id.rawValue) == ["m253402300799", "m1764547200", "m0"])
        #expect(versions.last?.modified == Date(timeIntervalSince1970: 0))
        #expect(versions.dropFirst().first?.modified == Date(timeIntervalSince1970: 253_402_300_799))
    }
}
