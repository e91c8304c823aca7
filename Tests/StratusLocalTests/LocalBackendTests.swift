import Foundation
import Stratus
import StratusLocal
import StratusTestSupport
import Testing

@Suite struct LocalBackendTests {
    @Test func aMissingRootIsAnInvalidConfigurationNamingIt() async throws {
        let options = RemoteOptions(remoteName: "saves", typeName: "local", values: [:])
        let error = #expect(throws: ServiceError.self) { try LocalBackend.makeService(options: options) }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.message.contains("'root'") == true)
    }

    @Test func badNumbersAreInvalidConfigurationsNamingTheOption() throws {
        let folder = try TemporaryFolder(prefix: "stratus-local-tests")
        defer { folder.remove() }
        for (option, value) in [("max_versions", "0"), ("max_versions", "many"), ("chunk_size", "-1")] {
            let options = RemoteOptions(
                remoteName: "saves", typeName: "local", values: ["root": folder.root.path, option: value])
            let error = #expect(throws: ServiceError.self) { try LocalBackend.makeService(options: options) }
            #expect(error?.code == .invalidConfiguration)
            #expect(error?.message.contains(option) == true, "\(error?.message ?? "")")
        }
    }

    @Test func theRegistryBuildsAWorkingLocalService() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-local-tests")
        defer { folder.remove() }
        let registry = ServiceRegistry(backends: [LocalBackend.self])
        let service = try registry.makeService(
            options: RemoteOptions(
                remoteName: "saves", typeName: "local",
                values: ["root": folder.root.path, "max_versions": "2", "chunk_size": "65536"]
            ))
        #expect(service.capabilities.chunkSize == 65536)
        #expect(service.capabilities.hashAlgorithm == .sha256)
        #expect(service.capabilities.conditionalWrites == .atomic)
        let path = try RemotePath("a.txt")
        for index in 0..<3 {
            _ = try await service.upload(from: .bytes(Data("\(index)".utf8)), to: path)
        }
        #expect(try await service.versions(of: path).count == 2)
    }
}
