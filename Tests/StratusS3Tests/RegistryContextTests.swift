import Foundation
import Stratus
import StratusS3
import StratusTestSupport
import Testing

/// S3 services built by name from one registry share the registry's HTTP client.
@Suite struct RegistryContextTests {
    static func remote(_ bucket: String, caFile: String? = nil) -> StratusConfiguration.Remote {
        var options = [
            "bucket": bucket, "endpoint": "http://127.0.0.1:9", "access_key_id": "id", "secret_access_key": "secret",
        ]
        options["ca_file"] = caFile
        return StratusConfiguration.Remote(type: "s3", options: options)
    }

    @Test func servicesBuiltByNameShareOneClientPerTrustRootsUntilShutdown() async throws {
        let temporaryFolder = try TemporaryFolder(prefix: "stratus-registry")
        defer { temporaryFolder.remove() }
        let folder = temporaryFolder.url
        let caFile = folder.appending(path: "ca.pem")
        try Data("not used before a request".utf8).write(to: caFile)
        let configuration = StratusConfiguration(remotes: [
            "saves": Self.remote("saves"),
            "photos": Self.remote("photos"),
            "private": Self.remote("private", caFile: caFile.path),
        ])
        let registry = ServiceRegistry(backends: [S3Backend.self])

        _ = try registry.makeService(named: "saves", in: configuration)
        _ = try registry.makeService(named: "photos", in: configuration)
        #expect(registry.context.resourceNames == ["http-client ca_file="])
        // Other trust roots need a client of their own.
        _ = try registry.makeService(named: "private", in: configuration)
        #expect(registry.context.resourceNames == ["http-client ca_file=", "http-client ca_file=\(caFile.path)"])
        // Built on its own, a service takes nothing from any registry.
        _ = try S3Backend.makeService(options: configuration.options(forRemote: "saves"))
        #expect(registry.context.resourceNames.count == 2)

        await registry.shutdown()
        await registry.shutdown()
        #expect(registry.context.isShutDown)
        let error = #expect(throws: ServiceError.self) { try registry.makeService(named: "saves", in: configuration) }
        #expect(error?.code == .invalidConfiguration)
    }
}
