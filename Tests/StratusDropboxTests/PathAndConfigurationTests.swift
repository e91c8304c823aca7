import Foundation
import Stratus
import StratusAdapterKit
import StratusDigest
import Testing

@testable import StratusDropbox

/// Path mapping, configuration checks, commit arguments and the whole-content hash.
@Suite struct PathAndConfigurationTests {
    @Test func pathsUnderARoot() throws {
        let mapper = try DropboxPathMapper(root: "/Backups/App/")
        #expect(mapper.dropboxPath(try RemotePath("a/b.txt")) == "/Backups/App/a/b.txt")
        #expect(mapper.dropboxPath(.root) == "/Backups/App")
        #expect(mapper.remotePath(fromDropbox: "/backups/app/A/b.txt") == (try RemotePath("A/b.txt")))
        #expect(mapper.remotePath(fromDropbox: "/other/a") == nil)
        #expect(mapper.remotePath(fromDropbox: "/Backups/App") == nil)
    }

    @Test func pathsAtTheTop() throws {
        let mapper = try DropboxPathMapper(root: "")
        #expect(mapper.dropboxPath(.root) == "")
        #expect(mapper.dropboxPath(try RemotePath("x")) == "/x")
        #expect(mapper.remotePath(fromDropbox: "/x/y") == (try RemotePath("x/y")))
    }

    @Test func pathRules() throws {
        let mapper = try DropboxPathMapper(root: "")
        #expect(throws: ServiceError.self) { try mapper.validate(try RemotePath("a\\b")) }
        #expect(throws: ServiceError.self) { try mapper.validate(try RemotePath(String(repeating: "x", count: 256))) }
        #expect(DropboxPathMapper.rules.isCaseSensitive == false)
    }

    @Test func configurationLimits() throws {
        #expect(throws: ServiceError.self) { try DropboxConfiguration(chunkSize: 1_000_000) }
        #expect(throws: ServiceError.self) { try DropboxConfiguration(singleUploadLimit: 151 * 1_048_576) }
        #expect(throws: ServiceError.self) { try DropboxConfiguration(pageSize: 0) }
        let defaults = try DropboxConfiguration()
        #expect(defaults.chunkSize == 8 * 1_048_576)
        #expect(defaults.apiURL.absoluteString == "https://api.dropboxapi.com")
    }

    @Test func backendOptionsNeedCredentials() {
        let options = RemoteOptions(remoteName: "db", typeName: "dropbox", values: [:])
        #expect(throws: ServiceError.self) { try DropboxBackend.makeService(options: options) }
        let bad = RemoteOptions(
            remoteName: "db", typeName: "dropbox", values: ["access_token": "t", "chunk_size": "5"])
        #expect(throws: ServiceError.self) { try DropboxBackend.makeService(options: bad) }
    }

    @Test func commitModes() throws {
        let service = try DropboxService(
            configuration: DropboxConfiguration(root: "r"), credentials: .accessToken("secret-token"))
        let path = try RemotePath("f.txt")
        func json(_ precondition: WritePrecondition) -> String {
            StoneValue.object(service.commitInfo(for: path, precondition: precondition)).json(asciiOnly: true)
        }
        #expect(
            json(.none)
                == #"{"path":"/r/f.txt","mode":"overwrite","autorename":false,"mute":true,"strict_conflict":false}"#)
        #expect(json(.mustNotExist).contains(#""mode":"add","autorename":false"#))
        #expect(
            json(.mustMatch(VersionID("015f1e2a3b4c"))).contains(#""mode":{".tag":"update","update":"015f1e2a3b4c"}"#))
        #expect(json(.mustMatch(VersionID("015f1e2a3b4c"))).contains(#""strict_conflict":true"#))
        #expect(!"\(DropboxCredentials.accessToken("secret-token"))".contains("secret"))
    }

    @Test func wholeHashSurvivesAResume() throws {
        var bytes = Data(count: 10_000_000)
        for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: index &* 31) }
        let content = try UploadContent(.bytes(bytes))
        let whole = WholeContentHash()
        let unit = Int64(DropboxContentHash.blockSize)
        _ = try whole.hash(content, 0..<unit)
        _ = try whole.hash(content, unit..<(2 * unit))
        // Dropbox said it only has 5 MiB: the range is hashed again, but fed to the whole once.
        _ = try whole.hash(content, 5_242_880..<content.size)
        let expected = Hex.encode(try Digest.compute(.dropboxContentHash, over: bytes))
        #expect(try whole.finish(content) == expected)
        let part = try content.contentHash(0..<unit)
        #expect(part == Hex.encode(try Digest.compute(.dropboxContentHash, over: bytes.prefix(Int(unit)))))
    }
}
