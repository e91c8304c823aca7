import Foundation
import MockSupport
import StratusFileSystem
import StratusTestSupport
import Testing

/// What a mock leaves on disk: folders only its owner can read, and a TLS authority that can
/// vouch for nothing but the loopback names and signs nothing more.
@Suite struct PrivateFilesTests {
    private static func mode(_ url: URL) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
    }

    @Test func dataFoldersAreOwnerOnly() throws {
        let temporaryFolder = try TemporaryFolder(prefix: "stratus-private")
        defer { temporaryFolder.remove() }
        let root = temporaryFolder.url.appending(path: "data")
        let store = try BlobStore(root: root)
        for folder in [root, store.blobsDirectory, store.scratchDirectory] {
            #expect(try Self.mode(folder) == 0o700, "\(folder.path)")
        }
    }

    @Test func theMockAuthorityIsConstrainedToLoopbackAndItsKeyIsGone() async throws {
        let temporaryFolder = try TemporaryFolder(prefix: "stratus-private")
        defer { temporaryFolder.remove() }
        let folder = temporaryFolder.url.appending(path: "certificates")
        let certificates = try await MockCertificates.create(in: folder)
        #expect(try Self.mode(folder) == 0o700)
        #expect(!FileManager.default.fileExists(atPath: folder.appending(path: "ca-key.pem").path))
        #expect(try Self.mode(certificates.privateKey) == 0o600)
        let result = try await ChildProcess.run(
            "openssl", ["x509", "-in", certificates.caCertificate.path, "-noout", "-ext", "nameConstraints"])
        #expect(result.termination.isSuccess, "\(result.errorText)")
        let text = result.outputText
        #expect(text.contains("critical"), "\(text)")
        #expect(text.contains("DNS:localhost"), "\(text)")
        #expect(text.contains("IP:127.0.0.1/255.255.255.255"), "\(text)")
        #expect(text.contains("IP:0:0:0:0:0:0:0:1/"), "\(text)")
    }
}
