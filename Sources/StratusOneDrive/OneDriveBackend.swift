import Foundation
public import Stratus
import StratusAdapterKit
import StratusHTTP
public import StratusOAuth

/// Registers the OneDrive adapter with a ``/Stratus/ServiceRegistry`` under the type
/// `onedrive`.
///
/// Either `access_token` (a fixed token) or `client_id` with `token_store` (a signed-in token
/// file, refreshed as needed) must be set.
public enum OneDriveBackend: ServiceBackend {
    /// `"onedrive"`.
    public static let typeName = "onedrive"

    /// The options a `onedrive` remote takes.
    public static let options: [BackendOption] = [
        BackendOption(
            "client_id", summary: "The app registration's application (client) ID; needed unless access_token is set."
        ),
        BackendOption("client_secret", summary: "The client secret of a confidential app; public clients have none."),
        BackendOption(
            "tenant",
            summary: "common (the default: personal and work accounts), consumers, organizations, or a tenant ID."),
        .tokenStore,
        .accessToken,
        BackendOption(
            "root",
            summary: "approot (the default: the app's own folder, Apps/<app>) or a folder path such as Games/Saves."),
        BackendOption(
            "api_url",
            summary: "Graph's base URL, https://graph.microsoft.com/v1.0 by default (a mock's /v1.0 URL in tests)."),
        BackendOption(
            "login_url",
            summary:
                "The identity platform's host, https://login.microsoftonline.com by default; tokens are at <login_url>/<tenant>/oauth2/v2.0/token."
        ),
        .allowInsecureHTTP,
        BackendOption(
            "simple_upload_limit",
            summary: "Files up to this many bytes go up in one PUT (default 4 MiB, at most 250 MB)."),
        BackendOption(
            "fragment_size",
            summary: "The upload-session fragment size in bytes, a multiple of 320 KiB below 60 MiB (default 10 MiB)."),
        BackendOption(
            "page_size", summary: "Entries per page of children, versions and delta, 1 to 1000 (default 200)."),
        .pollInterval,
        .stateFolder,
        StratusHTTPClient.caFileOption,
    ]

    /// Builds a OneDrive service on its own, with a client of its own and no logger (see
    /// ``makeService(options:context:)``).
    /// - Parameter options: The remote's options; see ``options``.
    /// - Returns: A ``OneDriveService``.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidConfiguration`` naming the missing or bad
    ///   option.
    public static func makeService(options: RemoteOptions) throws -> any Service {
        try makeService(options: options, context: BackendContext())
    }

    /// Builds a OneDrive service from a remote's options, sharing the context's HTTP client and
    /// logging to its logger.
    /// - Parameters:
    ///   - options: The remote's options; see ``options``.
    ///   - context: The registry's context.
    /// - Returns: A ``OneDriveService``.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidConfiguration`` naming the missing or bad
    ///   option.
    public static func makeService(options: RemoteOptions, context: BackendContext) throws -> any Service {
        let defaults = try OneDriveConfiguration()
        let configuration = try OneDriveConfiguration(
            apiURL: try options.url("api_url") ?? defaults.apiURL,
            root: try OneDriveRoot(option: options.string("root") ?? ""),
            simpleUploadLimit: try options.integer("simple_upload_limit") ?? defaults.simpleUploadLimit,
            fragmentSize: try options.integer("fragment_size") ?? defaults.fragmentSize,
            pageSize: try options.integer("page_size").map { Int(clamping: $0) } ?? defaults.pageSize,
            pollingSchedule: try options.pollingSchedule(),
            stateFolder: options.stateFolder()
        )
        let http = try context.sharedHTTPClient(for: options)
        let (tenant, loginURL) = try identityPlatform(options)
        let credentials = try OneDriveCredentials.forRemote(options, http: http) { clientID, secret in
            .microsoft(clientID: clientID, clientSecret: secret, tenant: tenant, loginURL: loginURL)
        }
        return try OneDriveService(
            configuration: configuration, credentials: credentials, http: http, logger: context.logger)
    }

    /// The Microsoft OAuth profile a remote's options describe (`tenant`, `login_url`).
    /// - Parameters:
    ///   - options: The remote's options.
    ///   - clientID: The client ID.
    ///   - secret: The client secret, if any.
    /// - Returns: The provider.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidConfiguration`` for a bad `login_url` or
    ///   `tenant`.
    public static func provider(_ options: RemoteOptions, clientID: String, secret: String?) throws -> OAuthProvider {
        let (tenant, loginURL) = try identityPlatform(options)
        return .microsoft(clientID: clientID, clientSecret: secret, tenant: tenant, loginURL: loginURL)
    }

    /// The tenant (default `common`) and login host a remote's options name.
    private static func identityPlatform(_ options: RemoteOptions) throws -> (tenant: String, loginURL: URL) {
        let tenant = options.string("tenant").flatMap { $0.isEmpty ? nil : $0 } ?? "common"
        guard tenant.utf8.allSatisfy({ PercentEncoding.isUnreserved($0) }) else {
            throw ServiceError(
                .invalidConfiguration,
                "Remote '\(options.remoteName)' option 'tenant' is \(tenant.debugDescription), which is not a tenant name or ID."
            )
        }
        return (tenant, try options.url("login_url") ?? OAuthProvider.microsoftLogin)
    }
}
