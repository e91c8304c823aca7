public import Stratus
import Synchronization

/// How a wrapper backend (`crypt`) builds the remote it wraps: by name, through the registry
/// and the configuration an app put in the registry's context.
final class WrappedRemotes: Sendable {
    static let key = BackendContext.ResourceKey<WrappedRemotes>("stratus-crypt wrapped remotes")
    /// How deep wrappers may nest before a cycle is assumed.
    static let maximumDepth = 8

    @TaskLocal static var depth = 0

    private let source = Mutex<(registry: ServiceRegistry, configuration: StratusConfiguration)?>(nil)

    func set(_ registry: ServiceRegistry, _ configuration: StratusConfiguration) {
        source.withLock { $0 = (registry, configuration) }
    }

    static func make(_ name: String, for wrapper: String, context: BackendContext) throws -> any Service {
        let remotes = try context.resource(key) { WrappedRemotes() }
        guard let (registry, configuration) = remotes.source.withLock({ $0 }) else {
            throw ServiceError(
                .invalidConfiguration,
                "Remote '\(wrapper)' wraps remote '\(name)', but the registry was not given the configuration to build it; call registry.resolvingWrappedRemotes(in: configuration) first."
            )
        }
        guard depth < maximumDepth else {
            throw ServiceError(
                .invalidConfiguration,
                "Remote '\(wrapper)' wraps remotes more than \(maximumDepth) deep; is there a cycle?")
        }
        return try $depth.withValue(depth + 1) {
            try registry.makeService(named: name, in: configuration)
        }
    }
}

extension ServiceRegistry {
    /// Lets wrapper backends (`crypt`) that this registry builds make the remotes they wrap,
    /// by name, from a configuration. Call it again when the configuration changes; copies of
    /// the registry share it.
    /// - Parameter configuration: The configuration, with environment overrides applied.
    /// - Throws: ``/Stratus/ServiceError`` (`invalidConfiguration`) when the registry was shut down.
    public func resolvingWrappedRemotes(in configuration: StratusConfiguration) throws {
        try context.resource(WrappedRemotes.key) { WrappedRemotes() }.set(self, configuration)
    }
}
