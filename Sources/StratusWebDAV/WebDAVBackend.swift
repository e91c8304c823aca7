import Foundation
public import Stratus
import StratusAdapterKit
import StratusHTTP

/// Registers the WebDAV adapter with a ``/Stratus/ServiceRegistry`` under the type `webdav`.
///
/// The password comes from `password`, else from the first line of `password_file`, else from
/// the first line `password_command` prints; it is never shown in messages.
public enum WebDAVBackend: ServiceBackend {
    /// `"webdav"`.
    public static let typeName = "webdav"

    /// The options a `webdav` remote takes.
    public static let options: [BackendOption] = [
        BackendOption(
            "url",
            summary:
                "The collection that is the remote's root, such as https://cloud.example.com/remote.php/dav/files/alice/Saves.",
            isRequired: true),
        BackendOption("user", summary: "The user name (HTTP Basic).", isRequired: true),
        BackendOption(
            "password",
            summary:
                "The password or app password; prefer password_file or password_command to keep it out of the configuration file."
        ),
        BackendOption("password_file", summary: "A file whose first line is the password."),
        BackendOption(
            "password_command", summary: "A shell command that prints the password, such as 'pass show cloud'."),
        BackendOption(
            "vendor",
            summary:
                "'generic' (any RFC 4918 server; default), 'nextcloud' (versions, propagated folder ETags) or 'owncloud'."
        ),
        BackendOption(
            "locking",
            summary:
                "'true' (default) to take WebDAV locks around writes, so that Stratus writers of one path take turns; 'false' for class 1 servers."
        ),
        BackendOption(
            "exclusive_locks",
            summary:
                "'true' when the server grants an exclusive lock to one of many simultaneous LOCK requests only (rclone, WsgiDAV; not Apache mod_dav_fs), which makes preconditions atomic; 'false' (default) otherwise."
        ),
        BackendOption(
            "dead_properties",
            summary:
                "'true' (default) when the server keeps dead properties (hash records and custom metadata); 'false' for servers that refuse PROPPATCH, such as rclone."
        ),
        BackendOption(
            "etag_hash",
            summary:
                "'md5' when the server's file ETags are content MD5s (rclone serve webdav --etag-hash MD5); used as the content hash when dead properties are off."
        ),
        BackendOption(
            "max_name_length",
            summary:
                "The longest file or folder name in UTF-8 bytes (default 250: Apache cannot keep properties of longer names, and Nextcloud allows no longer ones)."
        ),
        BackendOption("page_size", summary: "Changes per change-feed page (default 500)."),
        BackendOption(
            "feed_retention_days",
            summary:
                "Days the change feed's journal and snapshots are kept in .stratus/ (default 30); an older change token is refused and the files are listed again."
        ),
        BackendOption(
            "chunked_upload_above",
            summary:
                "With vendor=nextcloud, the largest upload in bytes sent in one PUT (default 10485760, 10 MiB); larger ones go through Nextcloud's chunked upload, which is resumed after a lost connection and keeps the file's versions."
        ),
        BackendOption(
            "chunk_size",
            summary:
                "With vendor=nextcloud, the chunk size of a chunked upload in bytes (default 10485760, 10 MiB; at most 5 GiB). Nextcloud on S3 primary storage refuses chunks below 5 MiB."
        ),
        .pollInterval,
        .allowInsecureHTTP,
        StratusHTTPClient.caFileOption,
    ]

    /// Builds a WebDAV service from a remote's options.
    /// - Parameter options: The remote's options; see ``options``.
    /// - Returns: A ``WebDAVService``.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidConfiguration`` naming the missing or bad
    ///   option (never quoting a password).
    public static func makeService(options: RemoteOptions) throws -> any Service {
        let remote = options.remoteName
        guard let url = try options.url("url") else {
            _ = try options.requiredString("url")
            throw ServiceError(.invalidConfiguration, "Remote '\(remote)' needs the option 'url'.")
        }
        let user = try options.requiredString("user")
        let password: String
        if let given = options.string("password"), !given.isEmpty {
            password = given
        } else if let file = options.string("password_file"), !file.isEmpty {
            password = try named(remote) {
                try WebDAVCredentials.readPassword(file: URL(filePath: NSString(string: file).expandingTildeInPath))
            }
        } else if let command = options.string("password_command"), !command.isEmpty {
            password = try named(remote) { try WebDAVCredentials.readPassword(command: command) }
        } else {
            throw ServiceError(
                .invalidConfiguration, "Remote '\(remote)' needs 'password', 'password_file' or 'password_command'.")
        }
        let vendor: WebDAVConfiguration.Vendor
        switch options.string("vendor")?.lowercased() {
        case nil, "", "generic": vendor = .generic
        case "nextcloud": vendor = .nextcloud
        case "owncloud": vendor = .owncloud
        case let other?:
            throw ServiceError(
                .invalidConfiguration,
                "Remote '\(remote)' option 'vendor' is \(other.debugDescription), which is not 'generic', 'nextcloud' or 'owncloud'."
            )
        }
        let etagIsMD5: Bool
        switch options.string("etag_hash")?.lowercased() {
        case nil, "", "none": etagIsMD5 = false
        case "md5": etagIsMD5 = true
        case let other?:
            throw ServiceError(
                .invalidConfiguration,
                "Remote '\(remote)' option 'etag_hash' is \(other.debugDescription), which is not 'md5' or 'none'.")
        }
        let configuration = try named(remote) {
            try WebDAVConfiguration(
                url: url,
                credentials: WebDAVCredentials(user: user, password: password),
                vendor: vendor,
                usesLocks: try options.boolean("locking") ?? true,
                locksAreExclusive: try options.boolean("exclusive_locks") ?? false,
                keepsDeadProperties: try options.boolean("dead_properties") ?? true,
                etagIsMD5: etagIsMD5,
                maximumNameLength: try options.integer("max_name_length").map { Int(clamping: $0) },
                changePageSize: Int(clamping: try options.integer("page_size") ?? 500),
                feedRetention: .seconds(min(max(try options.integer("feed_retention_days") ?? 30, 0), 36_500) * 86_400),
                pollingSchedule: try options.pollingSchedule(),
                chunkedUploadThreshold: try options.integer("chunked_upload_above")
                    ?? WebDAVConfiguration.defaultChunkSize,
                chunkSize: try options.integer("chunk_size") ?? WebDAVConfiguration.defaultChunkSize
            )
        }
        return try WebDAVService(configuration: configuration, http: StratusHTTPClient.forRemote(options))
    }

    /// Runs a step whose configuration errors should name the remote.
    private static func named<T>(_ remote: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ServiceError
            where error.code == .invalidConfiguration && !error.message.contains("Remote '")
        {
            throw ServiceError(.invalidConfiguration, "Remote '\(remote)': \(error.message)")
        }
    }
}
