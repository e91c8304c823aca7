public import Logging
import Synchronization

/// What a ``ServiceRegistry`` hands each backend it asks to build a service: where to log, and
/// the resources services of one app share, such as one HTTP client (one transfer thread) for
/// every HTTP service.
///
/// The core knows nothing of HTTP: a resource is any `Sendable` value stored under a typed
/// ``ResourceKey``, made the first time a backend asks for it and shut down once, with the
/// context. The adapter kit builds on it (`BackendContext.sharedHTTPClient(for:)`).
///
/// ```swift
/// let registry = ServiceRegistry(backends: [LocalBackend.self, S3Backend.self], logger: appLogger)
/// let saves = try registry.makeService(named: "saves", in: configuration)
/// // ...
/// await registry.shutdown()   // closes the shared resources, once
/// ```
///
/// A context that is dropped without ``shutdown()`` releases its resources as they are: the
/// services built from it keep what they use alive.
public final class BackendContext: Sendable {
    /// A typed name for a shared resource: the same key always finds the same resource.
    ///
    /// Two keys are the same when their names and resource types are.
    public struct ResourceKey<Resource: Sendable>: Hashable, Sendable {
        /// The resource's name, such as `"http-client ca_file=/etc/ca.pem"`.
        public let name: String

        /// Names a resource.
        /// - Parameter name: The name; resources that must not be shared need different names.
        public init(_ name: String) {
            self.name = name
        }
    }

    /// Where the services built with this context log.
    public let logger: Logger

    /// A stored resource's identity: its key's name and type.
    private struct StoreKey: Hashable {
        let name: String
        let type: ObjectIdentifier
    }

    /// A stored resource and how to shut it down.
    private struct Entry: Sendable {
        let value: any Sendable
        let shutdown: @Sendable () async -> Void
    }

    private struct State {
        var entries: [StoreKey: Entry] = [:]
        /// The order resources were made in; they are shut down in reverse.
        var order: [StoreKey] = []
        /// The shutdown, once it started; later calls wait for the same one.
        var closing: Task<Void, Never>?
    }

    private let state = Mutex(State())

    /// Creates a context.
    /// - Parameter logger: Where the services built with it log; nowhere by default.
    public init(logger: Logger = Logger(label: "stratus", factory: { _ in SwiftLogNoOpLogHandler() })) {
        self.logger = logger
    }

    /// The resource stored under a key, made by `make` the first time it is asked for.
    ///
    /// `make` runs at most once per key while it succeeds (a failure stores nothing, so the
    /// next call tries again); it runs under the context's lock, so keep it quick and do not
    /// call back into the context from it.
    /// - Parameters:
    ///   - key: The resource's key.
    ///   - make: Makes the resource.
    ///   - shutdown: Releases the resource when the context shuts down; called once.
    /// - Returns: The resource.
    /// - Throws: ``ServiceError`` (`invalidConfiguration`) when the context was shut down, or
    ///   what `make` throws.
    public func resource<Resource: Sendable>(
        _ key: ResourceKey<Resource>,
        make: () throws -> Resource,
        shutdown: @escaping @Sendable (Resource) async -> Void = { _ in }
    ) throws -> Resource {
        let storeKey = StoreKey(name: key.name, type: ObjectIdentifier(Resource.self))
        return try state.withLock { state throws -> Resource in
            guard state.closing == nil else {
                throw ServiceError(
                    .invalidConfiguration,
                    "The backend context was shut down; the shared resource '\(key.name)' is no longer available. Build services with a new registry."
                )
            }
            if let entry = state.entries[storeKey], let value = entry.value as? Resource {
                return value
            }
            let value = try make()
            state.entries[storeKey] = Entry(value: value, shutdown: { await shutdown(value) })
            state.order.append(storeKey)
            return value
        }
    }

    /// The names of the resources made so far, in the order they were made.
    public var resourceNames: [String] {
        state.withLock { state in state.order.map(\.name) }
    }

    /// Whether ``shutdown()`` was called.
    public var isShutDown: Bool {
        state.withLock { $0.closing != nil }
    }

    /// Shuts every resource down, the last made first, and refuses new ones.
    ///
    /// Idempotent: each resource is shut down once; a later or concurrent call waits for the
    /// same shutdown to finish. Services built with the context fail their next request that
    /// needs a resource that was shut down (an HTTP service's with a network error).
    public func shutdown() async {
        let closing = state.withLock { state -> Task<Void, Never> in
            if let closing = state.closing {
                return closing
            }
            let entries = state.order.reversed().compactMap { state.entries[$0] }
            state.entries = [:]
            let closing = Task {
                for entry in entries {
                    await entry.shutdown()
                }
            }
            state.closing = closing
            return closing
        }
        await closing.value
    }
}
