import Foundation
public import Stratus
import StratusAdapterKit
import StratusHTTP
import StratusOAuth

/// Registers the Dropbox adapter with a ``/Stratus/ServiceRegistry`` under the type `dropbox`.
///
/// Either `access_token` (a fixed token) or `app_key` with `token_store` (a signed-in token
/// file, refreshed as needed) must be set.
public enum DropboxBackend: ServiceBackend {
    /// `"dropbox"`.
    public static let typeName = "dropbox"

    /// The options a `dropbox` remote takes.
    public static let options: [BackendOption] = [
        BackendOption(
            "app_key", summary: "The Dropbox app's key (OAuth client ID); needed unless access_token is set."),
        BackendOption("app_secret", summary: "The app's secret; leave out for a PKCE app, which has none."),
        .tokenStore,
        .accessToken,
        BackendOption(
            "root",
            summary: "The folder inside the Dropbox (or app folder) that is the remote's root; the top by default."),
        BackendOption(
            "api_url",
            summary:
                "The RPC host, https://api.dropboxapi.com by default; also where the OAuth token endpoint is looked for when set."
        ),
        BackendOption(
            "content_url", summary: "The upload and download host, https://content.dropboxapi.com by default."),
        BackendOption("notify_url", summary: "The long-poll host, https://notify.dropboxapi.com by default."),
        .allowInsecureHTTP,
        BackendOption(
            "chunk_size", summary: "The upload-session chunk size in bytes, a multiple of 4 MiB (default 8 MiB)."),
        BackendOption(
            "single_upload_limit",
            summary: "Files up to this many bytes go up in one request (default 8 MiB, at most 150 MiB)."),
        BackendOption("page_size", summary: "Entries per listing page, 1 to 2000 (Dropbox's default when unset)."),
        BackendOption(
            "batch_commits",
            summary:
                "Whether uploads are committed together in batches, as Dropbox asks of clients that write many files (default true)."
        ),
        StratusHTTPClient.caFileOption,
    ]

    /// Builds a Dropbox service on its own, with a client of its own and no logger (see
    /// ``makeService(options:context:)``).
    /// - Parameter options: The remote's options; see ``options``.
    /// - Returns: A ``DropboxService``.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidConfiguration`` naming the missing or bad
    ///   option.
    public static func makeService(options: RemoteOptions) throws -> any Service {
        try makeService(options: options, context: BackendContext())
    }

    /// Builds a Dropbox service from a remote's options, sharing the context's HTTP client and
    /// logging to its logger.
    /// - Parameters:
    ///   - options: The remote's options; see ``options``.
    ///   - context: The registry's context.
    /// - Returns: A ``DropboxService``.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidConfiguration`` naming the missing or bad
    ///   option.
    public static func makeService(options: RemoteOptions, context: BackendContext) throws -> any Service {
        let defaults = try DropboxConfiguration()
        let apiURL = try options.url("api_url")
        let configuration = try DropboxConfiguration(
            apiURL: apiURL ?? defaults.apiURL,
            contentURL: try options.url("content_url") ?? defaults.contentURL,
            notifyURL: try options.url("notify_url") ?? defaults.notifyURL,
            root: options.string("root") ?? "",
            chunkSize: try options.integer("chunk_size") ?? defaults.chunkSize,
            singleUploadLimit: try options.integer("single_upload_limit") ?? defaults.singleUploadLimit,
            pageSize: try options.integer("page_size").map { Int(clamping: $0) },
            commitBatching: try options.boolean("batch_commits") == false ? nil : defaults.commitBatching
        )
        let http = try context.sharedHTTPClient(for: options)
        let credentials = try DropboxCredentials.forRemote(
            options, clientIDOption: "app_key", clientSecretOption: "app_secret", http: http
        ) { clientID, secret in
            if let apiURL {
                .dropbox(clientID: clientID, clientSecret: secret, baseURL: apiURL)
            } else {
                .dropbox(clientID: clientID, clientSecret: secret)
            }
        }
        return try DropboxService(
            configuration: configuration, credentials: credentials, http: http, logger: context.logger)
    }
}
