/// A kind of service that can be built from configuration by name, such as `local` or
/// `dropbox`.
///
/// An adapter module provides one backend type; an app registers the backends it links in a
/// ``ServiceRegistry`` and then builds services by the names in its configuration.
public protocol ServiceBackend: Sendable {
    /// The name used in configuration files, such as `"local"`.
    static var typeName: String { get }

    /// The options a remote of this type reads, for help texts and error messages.
    static var options: [BackendOption] { get }

    /// Builds a service from a remote's options, on its own: with no logger and resources of
    /// its own (an HTTP service starts its own client).
    /// - Parameter options: The remote's options, already merged with environment overrides.
    /// - Returns: A ready service.
    /// - Throws: ``ServiceError`` (`invalidConfiguration`) naming the missing or bad option.
    static func makeService(options: RemoteOptions) throws -> any Service

    /// Builds a service from a remote's options within a registry's context: the service logs
    /// to the context's ``BackendContext/logger`` and takes what it can share (an HTTP client)
    /// from the context's resources, which the registry shuts down.
    ///
    /// The default ignores the context and calls ``makeService(options:)``, so a backend
    /// written before contexts existed keeps working.
    /// - Parameters:
    ///   - options: The remote's options, already merged with environment overrides.
    ///   - context: The registry's context.
    /// - Returns: A ready service.
    /// - Throws: ``ServiceError`` (`invalidConfiguration`) naming the missing or bad option.
    static func makeService(options: RemoteOptions, context: BackendContext) throws -> any Service
}

extension ServiceBackend {
    /// Calls ``makeService(options:)``, ignoring the context.
    public static func makeService(options: RemoteOptions, context: BackendContext) throws -> any Service {
        try makeService(options: options)
    }
}

/// One option a backend reads from a remote's configuration.
public struct BackendOption: Hashable, Sendable {
    /// The option's key, such as `"root"`.
    public var name: String
    /// What the option means, in one sentence.
    public var summary: String
    /// Whether a remote must set it.
    public var isRequired: Bool

    /// Describes an option.
    public init(_ name: String, summary: String, isRequired: Bool = false) {
        self.name = name
        self.summary = summary
        self.isRequired = isRequired
    }

    /// `allow_insecure_http`: lets the remote's URL options use plain `http` for any host, not
    /// only loopback ones (see ``RemoteOptions/url(_:)``). For test rigs; credentials then travel
    /// unencrypted.
    public static let allowInsecureHTTP = BackendOption(
        RemoteOptions.allowInsecureHTTPOption,
        summary:
            "true lets the URL options use plain http for any host (a test rig): tokens and secrets then travel unencrypted. Without it, http is accepted only for localhost, 127.0.0.1 and ::1."
    )
}
