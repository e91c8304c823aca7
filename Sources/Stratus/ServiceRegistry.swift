public import Logging

/// The backends an app links in, by type name, and the one place that turns a configured remote
/// into a ready ``Service``.
///
/// ```swift
/// var registry = ServiceRegistry(backends: [LocalBackend.self])
/// registry.register(MyBackend.self)
/// let configuration = try StratusConfiguration.loadDefault()
/// let saves = try registry.makeService(named: "saves", in: configuration)
/// ```
///
/// Before a backend is asked to build a service, the registry checks the remote's options
/// against the backend's ``ServiceBackend/options`` and reports every problem at once:
/// - an option key the backend does not declare is refused, and the message lists the valid
///   names, so a typo does not pass silently. Keys that start with `x-` or `x_` are passed
///   through unchecked, for an app's or a tool's own additions. A key that differs from a
///   declared name only in case or punctuation (such as `APP-KEY` for `app_key`, or an option
///   set from the environment) is taken as that option;
/// - a required option that is missing or empty is named together with the environment
///   variable that can set it.
///
/// Type names match without regard to case. The registry is a value: register the backends
/// while setting up, then share it freely.
///
/// Every service the registry builds gets the registry's ``context``: it logs to the context's
/// logger, and the services share what the context holds, such as one HTTP client for all the
/// HTTP remotes (one transfer thread per process, not one per service). Call ``shutdown()``
/// when the services are no longer needed; copies of a registry share one context.
public struct ServiceRegistry: Sendable {
    /// The backends by lower-cased type name.
    private var backends: [String: any ServiceBackend.Type] = [:]

    /// What every service built by this registry gets: the logger and the shared resources.
    public let context: BackendContext

    /// Creates a registry.
    /// - Parameters:
    ///   - backends: The backends to register, in order (a later backend with the same type
    ///     name replaces an earlier one).
    ///   - context: The context handed to every backend; a new one, logging nowhere, by default.
    public init(backends: [any ServiceBackend.Type] = [], context: BackendContext = BackendContext()) {
        self.context = context
        for backend in backends {
            register(backend)
        }
    }

    /// Creates a registry whose services log to an app's logger.
    /// - Parameters:
    ///   - backends: The backends to register, in order.
    ///   - logger: Where the services built by name log.
    public init(backends: [any ServiceBackend.Type] = [], logger: Logger) {
        self.init(backends: backends, context: BackendContext(logger: logger))
    }

    /// Shuts down the resources the built services share (see ``BackendContext/shutdown()``).
    /// Idempotent; services built earlier fail requests that need a shared resource afterwards.
    public func shutdown() async {
        await context.shutdown()
    }

    /// Adds a backend. A backend registered earlier under the same type name (in any case) is
    /// replaced, so an app can substitute its own.
    /// - Parameter backend: The backend type, such as `LocalBackend.self`.
    public mutating func register(_ backend: any ServiceBackend.Type) {
        backends[backend.typeName.lowercased()] = backend
    }

    /// The type names of the registered backends, sorted.
    public var typeNames: [String] {
        backends.values.map { $0.typeName }.sorted()
    }

    /// The backend registered for a type name, compared without regard to case.
    /// - Parameter typeName: A type name, such as `"dropbox"`.
    /// - Returns: The backend, or `nil` when none has that name.
    public func backend(forType typeName: String) -> (any ServiceBackend.Type)? {
        backends[typeName.lowercased()]
    }

    /// Builds the service for a configured remote.
    /// - Parameters:
    ///   - remote: The remote's name in the configuration.
    ///   - configuration: The configuration, with environment overrides already applied (as
    ///     ``StratusConfiguration/load(from:environment:)`` does).
    /// - Returns: A ready service.
    /// - Throws: ``ServiceError`` (`invalidConfiguration`) when no remote has that name, or for
    ///   the reasons of ``makeService(options:)``.
    public func makeService(named remote: String, in configuration: StratusConfiguration) throws -> any Service {
        try makeService(options: configuration.options(forRemote: remote))
    }

    /// Builds a service from a remote's options.
    /// - Parameter options: The remote's name, type and option values.
    /// - Returns: A ready service.
    /// - Throws: ``ServiceError`` (`invalidConfiguration`) when no backend has the type (the
    ///   message lists the known types), when options are unknown or required options are
    ///   missing (the message names each, and the environment variable of each missing one),
    ///   or whatever the backend throws for a bad value.
    public func makeService(options: RemoteOptions) throws -> any Service {
        let (backend, checked) = try check(options)
        do {
            return try backend.makeService(options: checked, context: context)
        } catch let error as ServiceError {
            throw error
        } catch {
            throw ServiceError(
                .invalidConfiguration,
                "Remote '\(options.remoteName)' (type \(backend.typeName)) could not be set up.",
                underlying: error
            )
        }
    }

    /// Checks a remote's options against its backend's declared options without building the
    /// service, for tools that validate a configuration.
    /// - Parameter options: The remote's name, type and option values.
    /// - Returns: The options with the backend's canonical type name, and with keys that
    ///   differ from a declared option only in case or punctuation renamed to that option.
    /// - Throws: ``ServiceError`` (`invalidConfiguration`) when no backend has the type, when a
    ///   key is unknown or set twice, or when a required option is missing.
    public func validatedOptions(_ options: RemoteOptions) throws -> RemoteOptions {
        try check(options).options
    }

    private func check(_ options: RemoteOptions) throws -> (backend: any ServiceBackend.Type, options: RemoteOptions) {
        guard let backend = backend(forType: options.typeName) else {
            throw unknownTypeError(options)
        }
        let declared = backend.options
        let declaredNames = Set(declared.map(\.name))
        var values: [String: String] = [:]
        var unknown: [String] = []
        var duplicates: [String] = []

        // Exact keys first, so a near match never displaces the key as written.
        let rank = { (key: String) in (declaredNames.contains(key) ? 0 : 1, key) }
        for key in options.values.keys.sorted(by: { rank($0) < rank($1) }) {
            guard let value = options.values[key] else { continue }
            let name =
                declaredNames.contains(key) || Self.isExtension(key)
                ? key
                : declared.first { RemoteOptions.environmentWord($0.name) == RemoteOptions.environmentWord(key) }?.name
            guard let name else {
                unknown.append(key)
                continue
            }
            if values[name] != nil {
                duplicates.append(name)
            }
            values[name] = value
        }

        let missing = declared.filter { option in option.isRequired && (values[option.name] ?? "").isEmpty }
        var problems: [String] = []
        if !unknown.isEmpty {
            let validNames = declared.map(\.name).sorted().joined(separator: ", ")
            problems.append(
                "Unknown \(plural(unknown.count, "option", "options")) \(quoted(unknown.sorted())); the valid options are \(validNames.isEmpty ? "none" : validNames) (keys starting with 'x-' are passed through for extensions)."
            )
        }
        if !duplicates.isEmpty {
            let names = Array(Set(duplicates)).sorted()
            problems.append(
                "\(plural(names.count, "Option", "Options")) \(quoted(names)) \(plural(names.count, "is", "are")) set more than once, under names that differ only in case or punctuation; keep one."
            )
        }
        if !missing.isEmpty {
            let named = missing.map { option in
                "'\(option.name)' (environment variable \(RemoteOptions.environmentName(remote: options.remoteName, option: option.name)))"
            }
            problems.append(
                "Missing required \(plural(missing.count, "option", "options")) \(named.joined(separator: ", ")); set \(plural(missing.count, "it", "them")) in the configuration file or the environment."
            )
        }
        guard problems.isEmpty else {
            throw ServiceError(
                .invalidConfiguration,
                "Remote '\(options.remoteName)' (type \(backend.typeName)) is not valid. "
                    + problems.joined(separator: " ")
            )
        }
        return (backend, RemoteOptions(remoteName: options.remoteName, typeName: backend.typeName, values: values))
    }

    private static func isExtension(_ key: String) -> Bool {
        let lowered = key.lowercased()
        return lowered.hasPrefix("x-") || lowered.hasPrefix("x_")
    }

    private func unknownTypeError(_ options: RemoteOptions) -> ServiceError {
        let known =
            typeNames.isEmpty
            ? "no backend types are registered; register one with ServiceRegistry.register(_:)"
            : "known types: " + typeNames.joined(separator: ", ")
        return ServiceError(
            .invalidConfiguration,
            "Remote '\(options.remoteName)' has type '\(options.typeName)'; \(known)."
        )
    }

    private func quoted(_ names: [String]) -> String {
        names.map { "'\($0)'" }.joined(separator: ", ")
    }

    private func plural(_ count: Int, _ one: String, _ many: String) -> String {
        count == 1 ? one : many
    }
}
