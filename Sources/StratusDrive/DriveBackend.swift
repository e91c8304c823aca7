import Foundation
public import Stratus
import StratusAdapterKit
import StratusHTTP
import StratusOAuth

/// Registers the Google Drive adapter with a ``/Stratus/ServiceRegistry`` under the type
/// `drive`.
///
/// Either `access_token` (a fixed token) or `client_id` with `token_store` (a signed-in token
/// file, refreshed as needed) must be set.
public enum DriveBackend: ServiceBackend {
    /// `"drive"`.
    public static let typeName = "drive"

    /// The options a `drive` remote takes.
    public static let options: [BackendOption] = [
        BackendOption("client_id", summary: "The Google OAuth client ID; needed unless access_token is set."),
        BackendOption("client_secret", summary: "The OAuth client's secret (installed apps have one too)."),
        .tokenStore,
        .accessToken,
        BackendOption(
            "root",
            summary:
                "appDataFolder (the default: the app's hidden folder) or a folder path in My Drive such as Games/Saves."
        ),
        BackendOption(
            "api_url",
            summary:
                "The API host, https://www.googleapis.com by default; when set, the OAuth endpoints are looked for there too unless oauth_url is set."
        ),
        BackendOption("upload_url", summary: "The upload host, the api_url by default."),
        BackendOption("oauth_url", summary: "The base of the OAuth endpoints (/token, /revoke), Google's by default."),
        .allowInsecureHTTP,
        BackendOption(
            "chunk_size", summary: "The resumable-upload chunk size in bytes, a multiple of 256 KiB (default 8 MiB)."),
        BackendOption(
            "single_upload_limit",
            summary: "Files up to this many bytes go up in one multipart request (default 5 MiB, at most 64 MiB)."),
        BackendOption(
            "delete_mode",
            summary: "trash (the default for a My Drive folder) or permanent (the default for appDataFolder)."),
        BackendOption(
            "page_size", summary: "Entries per page of listings, changes and revisions, 1 to 1000 (default 100)."),
        .pollInterval,
        .stateFolder,
        StratusHTTPClient.caFileOption,
    ]

    /// Builds a Drive service on its own, with a client of its own and no logger (see
    /// ``makeService(options:context:)``).
    /// - Parameter options: The remote's options; see ``options``.
    /// - Returns: A ``DriveService``.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidConfiguration`` naming the missing or bad
    ///   option.
    public static func makeService(options: RemoteOptions) throws -> any Service {
        try makeService(options: options, context: BackendContext())
    }

    /// Builds a Drive service from a remote's options, sharing the context's HTTP client and
    /// logging to its logger.
    /// - Parameters:
    ///   - options: The remote's options; see ``options``.
    ///   - context: The registry's context.
    /// - Returns: A ``DriveService``.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidConfiguration`` naming the missing or bad
    ///   option.
    public static func makeService(options: RemoteOptions, context: BackendContext) throws -> any Service {
        let apiURL = try options.url("api_url")
        let defaults = try DriveConfiguration()
        let configuration = try DriveConfiguration(
            apiURL: apiURL ?? defaults.apiURL,
            uploadURL: try options.url("upload_url") ?? apiURL ?? defaults.uploadURL,
            root: try DriveRoot(option: options.string("root") ?? ""),
            chunkSize: try options.integer("chunk_size") ?? defaults.chunkSize,
            singleUploadLimit: try options.integer("single_upload_limit") ?? defaults.singleUploadLimit,
            pageSize: try options.integer("page_size").map { Int(clamping: $0) } ?? defaults.pageSize,
            deleteMode: try deleteMode(options),
            pollingSchedule: try options.pollingSchedule(),
            stateFolder: options.stateFolder()
        )
        let http = try context.sharedHTTPClient(for: options)
        let oauthBase = try options.url("oauth_url") ?? apiURL
        let credentials = try DriveCredentials.forRemote(options, http: http) { clientID, secret in
            if let oauthBase {
                .google(clientID: clientID, clientSecret: secret, baseURL: oauthBase)
            } else {
                .google(clientID: clientID, clientSecret: secret)
            }
        }
        return try DriveService(
            configuration: configuration, credentials: credentials, http: http, logger: context.logger)
    }

    private static func deleteMode(_ options: RemoteOptions) throws -> DriveConfiguration.DeleteMode? {
        guard let text = options.string("delete_mode"), !text.isEmpty else { return nil }
        guard let mode = DriveConfiguration.DeleteMode(rawValue: text.lowercased()) else {
            throw ServiceError(
                .invalidConfiguration,
                "Remote '\(options.remoteName)' option 'delete_mode' is \(text.debugDescription), which is not trash or permanent."
            )
        }
        return mode
    }
}
