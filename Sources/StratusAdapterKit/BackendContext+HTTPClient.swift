import Foundation
public import Stratus
public import StratusHTTP

extension BackendContext {
    /// The HTTP client the services built with this context share: one client (one libcurl
    /// thread and one connection pool) for every remote with the same trust roots, made the
    /// first time a backend asks and shut down with the context.
    ///
    /// Remotes whose `ca_file` options differ get different clients, since trust roots belong to
    /// a client. The client logs to the context's ``/Stratus/BackendContext/logger``.
    ///
    /// A backend's ``/Stratus/ServiceBackend/makeService(options:context:)`` uses it:
    ///
    /// ```swift
    /// public static func makeService(options: RemoteOptions, context: BackendContext) throws -> any Service {
    ///     let http = try context.sharedHTTPClient(for: options)
    ///     return try MyService(configuration: ..., http: http, logger: context.logger)
    /// }
    /// ```
    /// - Parameter options: The remote's options (`ca_file` is read).
    /// - Returns: The shared client.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidConfiguration`` when the context was shut
    ///   down, the CA file cannot be read or no client can be made.
    public func sharedHTTPClient(for options: RemoteOptions) throws -> StratusHTTPClient {
        let caFile = options.string("ca_file").map { NSString(string: $0).expandingTildeInPath } ?? ""
        let key = ResourceKey<StratusHTTPClient>("http-client ca_file=\(caFile)")
        return try resource(
            key,
            make: { try StratusHTTPClient.forRemote(options, logger: logger) },
            shutdown: { client in await client.shutdown() }
        )
    }
}
