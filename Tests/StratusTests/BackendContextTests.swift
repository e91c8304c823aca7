import Foundation
import InMemoryLogging
import Logging
import Stratus
import StratusAdapterKit
import Synchronization
import Testing

/// A stand-in for an expensive shared resource (an HTTP client): counts how often it is made
/// and shut down.
final class CountingPool: Sendable {
    static let key = BackendContext.ResourceKey<CountingPool>("counting-pool")

    let shutdowns = Atomic<Int>(0)

    func shutdown() async {
        shutdowns.add(1, ordering: .relaxed)
    }
}

/// A service that remembers the pool it was given.
struct PooledService: ForwardingService {
    let pool: CountingPool
    let base: any Service
}

/// A backend that shares one pool per context and logs where the context says.
enum PooledBackend: ServiceBackend {
    static let typeName = "pooled"
    static let options: [BackendOption] = []
    static let makes = Atomic<Int>(0)

    static func makeService(options: RemoteOptions) throws -> any Service {
        try makeService(options: options, context: BackendContext())
    }

    static func makeService(options: RemoteOptions, context: BackendContext) throws -> any Service {
        let pool = try context.resource(
            CountingPool.key,
            make: {
                makes.add(1, ordering: .relaxed)
                return CountingPool()
            }, shutdown: { await $0.shutdown() })
        context.logger.info("built remote", metadata: ["remote": "\(options.remoteName)"])
        return PooledService(pool: pool, base: RecordingService(options: options))
    }
}

@Suite("Backend context")
struct BackendContextTests {
    static let configuration = StratusConfiguration(remotes: [
        "saves": .init(type: "pooled", options: [:]),
        "photos": .init(type: "pooled", options: [:]),
        "notes": .init(type: "folder", options: ["root": "/notes"]),
    ])

    @Test("services built by name from one registry share one resource and log to the app's logger")
    func servicesShareOneResourceAndLog() throws {
        let logs = InMemoryLogHandler()
        let registry = ServiceRegistry(
            backends: [PooledBackend.self, FolderBackend.self], logger: Logger(label: "app", factory: { _ in logs }))
        let saves = try #require(try registry.makeService(named: "saves", in: Self.configuration) as? PooledService)
        let photos = try #require(try registry.makeService(named: "photos", in: Self.configuration) as? PooledService)
        // A backend written before contexts existed is still built, through its old entry point.
        #expect(try registry.makeService(named: "notes", in: Self.configuration) is RecordingService)

        #expect(saves.pool === photos.pool)
        #expect(registry.context.resourceNames == ["counting-pool"])
        let messages = logs.entries.map { "\($0.message) \($0.metadata["remote"].map { "\($0)" } ?? "")" }
        #expect(messages == ["built remote saves", "built remote photos"])

        // Another registry has its own context and so its own resource.
        let other = ServiceRegistry(backends: [PooledBackend.self])
        let elsewhere = try #require(try other.makeService(named: "saves", in: Self.configuration) as? PooledService)
        #expect(elsewhere.pool !== saves.pool)
    }

    @Test("shutdown closes each resource once, is idempotent, and refuses new resources")
    func shutdownIsIdempotent() async throws {
        let registry = ServiceRegistry(backends: [PooledBackend.self])
        let saves = try #require(try registry.makeService(named: "saves", in: Self.configuration) as? PooledService)
        _ = try registry.makeService(named: "photos", in: Self.configuration)
        #expect(!registry.context.isShutDown)

        // Concurrent and repeated calls: the pool is shut down exactly once.
        async let first: Void = registry.shutdown()
        async let second: Void = registry.context.shutdown()
        _ = await (first, second)
        await registry.shutdown()
        #expect(saves.pool.shutdowns.load(ordering: .relaxed) == 1)
        #expect(registry.context.isShutDown)

        let error = #expect(throws: ServiceError.self) {
            try registry.makeService(named: "saves", in: Self.configuration)
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.message.contains("shut down") == true)
    }

    @Test("a resource that fails to be made is not stored, so the next request tries again")
    func failedMakeIsNotStored() throws {
        struct Refusal: Error {}
        let context = BackendContext()
        let key = BackendContext.ResourceKey<CountingPool>("flaky")
        #expect(throws: Refusal.self) { try context.resource(key, make: { throw Refusal() }) }
        #expect(context.resourceNames.isEmpty)
        let pool = try context.resource(key, make: { CountingPool() })
        #expect(try context.resource(key, make: { CountingPool() }) === pool)
        // The same name with another type is another resource.
        let other = try context.resource(BackendContext.ResourceKey<String>("flaky"), make: { "text" })
        #expect(other == "text")
        #expect(context.resourceNames == ["flaky", "flaky"])
    }
}
