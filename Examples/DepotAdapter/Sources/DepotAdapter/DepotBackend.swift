import Stratus
import StratusAdapterKit
import StratusHTTP

/// Makes Depot remotes buildable by name (`type = depot`) through a ``Stratus/ServiceRegistry``.
///
/// ```ini
/// [saves]
/// type = depot
/// url = https://depot.example.com
/// api_key = ...
/// ```
public enum DepotBackend: ServiceBackend {
    /// `depot`.
    public static let typeName = "depot"

    /// `url` and `api_key` (required), `ca_file` for a server with a private certificate
    /// authority, and `allow_insecure_http` for a plain-HTTP server such as a local mock.
    public static let options: [BackendOption] = [
        BackendOption("url", summary: "The Depot server's base URL.", isRequired: true),
        BackendOption(
            "api_key", summary: "The API key (a secret; better set through the environment).", isRequired: true),
        StratusHTTPClient.caFileOption,
        BackendOption.allowInsecureHTTP,
    ]

    /// Builds a ``DepotService`` from a remote's options, with an HTTP client of its own.
    /// - Throws: ``Stratus/ServiceError/Code/invalidConfiguration`` naming a missing or bad
    ///   option, or an `http` URL without `allow_insecure_http`.
    public static func makeService(options: RemoteOptions) throws -> any Service {
        try makeService(options: options, context: BackendContext())
    }

    /// Builds a ``DepotService`` from a remote's options, sharing the registry's HTTP client
    /// (one per process and trust roots) and logging where the app asked.
    /// - Throws: ``Stratus/ServiceError/Code/invalidConfiguration`` naming a missing or bad
    ///   option, or an `http` URL without `allow_insecure_http`.
    public static func makeService(options: RemoteOptions, context: BackendContext) throws -> any Service {
        guard let url = try options.url("url") else {
            throw ServiceError(.invalidConfiguration, "Remote '\(options.remoteName)': the option 'url' is required.")
        }
        let configuration = DepotConfiguration(baseURL: url, apiKey: try options.requiredString("api_key"))
        return try DepotService(configuration: configuration, http: context.sharedHTTPClient(for: options))
    }
}
