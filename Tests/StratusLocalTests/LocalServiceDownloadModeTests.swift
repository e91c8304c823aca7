import Foundation
import Stratus
import StratusFileSystem
import StratusLocal
import StratusTestSupport
import Testing

/// A download from `local` gives the destination the mode it had (the README's promise, as the
/// HTTP adapters keep it), so a private file stays private whatever the umask.
@Suite struct LocalServiceDownloadModeTests {
    @Test func aPrivateDestinationStaysPrivate() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-local-tests")
        defer { folder.remove() }
        let service = try folder.service()
        let path = try RemotePath("save.json")
        _ = try await service.upload(from: .bytes(Data("secret progress".utf8)), to: path)
        let destination = folder.file("save.json")
        try Data("old".utf8).write(to: destination)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: destination.path)

        _ = try await service.download(path, to: destination)

        #expect(try mode(of: destination) == 0o600)
        #expect(try Data(contentsOf: destination) == Data("secret progress".utf8))
    }

    @Test func aNewDestinationGetsTheUmasksMode() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-local-tests")
        defer { folder.remove() }
        let service = try folder.service()
        let path = try RemotePath("save.json")
        _ = try await service.upload(from: .bytes(Data("progress".utf8)), to: path)
        let destination = folder.file("new.json")

        _ = try await service.download(path, to: destination)

        #expect(try mode(of: destination) == 0o666 & ~FileMode.umask())
    }

    private func mode(of file: URL) throws -> mode_t {
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        return mode_t(clamping: (attributes[.posixPermissions] as? Int) ?? 0)
    }
}
