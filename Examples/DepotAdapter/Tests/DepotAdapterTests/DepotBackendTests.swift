import DepotAdapter
import Foundation
import Stratus
import Testing

/// Depot remotes built by name, as an app's configuration names them.
@Suite struct DepotBackendTests {
    @Test func aRemoteBuiltByNameTalksToTheServer() async throws {
        try await DepotFixture.withRunning { fixture in
            let registry = ServiceRegistry(backends: [DepotBackend.self])
            let options = RemoteOptions(
                remoteName: "saves", typeName: "depot",
                values: ["url": fixture.baseURL.absoluteString, "api_key": fixture.depot.apiKey]
            )
            let service = try registry.makeService(options: options)
            let file = try await service.upload(from: .bytes(Data("by name".utf8)), to: try RemotePath("a.txt"))
            #expect(try await service.list(.root).map(\.version) == [file.version])
        }
    }

    @Test func aWrongKeyIsUnauthorizedAndNeverQuoted() async throws {
        try await DepotFixture.withRunning { fixture in
            let wrongKey = "depot-wrong-key-\(UUID().uuidString)"
            let service = try DepotService(
                configuration: DepotConfiguration(baseURL: fixture.baseURL, apiKey: wrongKey))
            let error = await #expect(throws: ServiceError.self) {
                try await service.list(.root)
            }
            #expect(error?.code == .unauthorized)
            #expect(!String(describing: error).contains(wrongKey))
            #expect(!fixture.depot.requestLog.description.contains(wrongKey))
        }
    }
}
