import Foundation
import Stratus
import StratusCrypt
import StratusLocal
import StratusTestSupport
import Testing

/// `crypt` built by name over another configured remote.
@Suite struct CryptBackendTests {
    static func configuration(_ folder: URL, crypt: [String: String]) -> StratusConfiguration {
        StratusConfiguration(remotes: [
            "saves": .init(type: "local", options: ["root": folder.appending(path: "root").path]),
            "vault": .init(type: "crypt", options: crypt),
        ])
    }

    @Test func theRegistryBuildsACryptRemoteOverAnotherByName() async throws {
        try await withTemporaryFolder { folder in
            let passwordFile = folder.appending(path: "password")
            try Data("file passphrase\n".utf8).write(to: passwordFile)
            let configuration = Self.configuration(
                folder,
                crypt: ["remote": "saves", "password_file": passwordFile.path, "scrypt_work_factor": "10"])
            let registry = ServiceRegistry(backends: [LocalBackend.self, CryptBackend.self])
            try registry.resolvingWrappedRemotes(in: configuration)
            let vault = try registry.makeService(named: "vault", in: configuration)
            #expect(vault is CryptService)
            let path = try RemotePath("a/b.txt")
            let written = try await vault.upload(from: .bytes(Data("hello".utf8)), to: path)
            #expect(written.contentHash?.algorithm == .sha256)
            let saves = try registry.makeService(named: "saves", in: configuration)
            #expect(try await saves.list(.root).count == 2)
            #expect(try await vault.list(.root).map(\.path) == [path])

            let command = Self.configuration(
                folder, crypt: ["remote": "saves", "password_command": "echo file passphrase", "names": "encrypted"])
            try registry.resolvingWrappedRemotes(in: command)
            let again = try registry.makeService(named: "vault", in: command)
            #expect(try await again.list(.root).map(\.path) == [path])
        }
    }

    @Test func badOptionsAreInvalidConfigurations() throws {
        let folder = try TemporaryFolder(prefix: "stratus-crypt-tests")
        defer { folder.remove() }
        let registry = ServiceRegistry(backends: [LocalBackend.self, CryptBackend.self])
        let cases: [[String: String]] = [
            ["remote": "saves"],
            ["remote": "saves", "password": "pw", "names": "scrambled"],
            ["remote": "saves", "password": "pw", "scrypt_work_factor": "40"],
            ["remote": "vault", "password": "pw"],
            ["remote": "elsewhere", "password": "pw"],
        ]
        for options in cases {
            let configuration = Self.configuration(folder.url, crypt: options)
            try registry.resolvingWrappedRemotes(in: configuration)
            let error = #expect(throws: ServiceError.self) {
                try registry.makeService(named: "vault", in: configuration)
            }
            #expect(error?.code == .invalidConfiguration, "\(options)")
            #expect(error?.message.contains("pw") != true)
        }
        let unresolved = ServiceRegistry(backends: [LocalBackend.self, CryptBackend.self])
        let configuration = Self.configuration(folder.url, crypt: ["remote": "saves", "password": "pw"])
        let error = #expect(throws: ServiceError.self) { try unresolved.makeService(named: "vault", in: configuration) }
        #expect(error?.message.contains("resolvingWrappedRemotes") == true)
        #expect(!"\(try configuration.options(forRemote: "vault"))".contains("pw\""))
    }
}
