import Foundation
public import Stratus
import StratusAdapterKit
import StratusHTTP

/// Registers the S3 adapter with a ``/Stratus/ServiceRegistry`` under the type `s3`.
///
/// Credentials come from `access_key_id` and `secret_access_key` (and `session_token`) when
/// set; else from `profile`/`credentials_file` when set; else from the environment
/// (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`) or the shared credentials
/// file (`~/.aws/credentials`, profile `AWS_PROFILE` or `default`).
public enum S3Backend: ServiceBackend {
    /// `"s3"`.
    public static let typeName = "s3"

    /// The options an `s3` remote takes.
    public static let options: [BackendOption] = [
        BackendOption("bucket", summary: "The bucket.", isRequired: true),
        BackendOption("root", summary: "The key prefix that is the remote's root; the whole bucket by default."),
        BackendOption("region", summary: "The signing region (default AWS_REGION, else us-east-1)."),
        BackendOption(
            "endpoint",
            summary: "The S3 endpoint URL; https://s3.<region>.amazonaws.com by default, or any S3-compatible server."),
        .allowInsecureHTTP,
        BackendOption(
            "addressing",
            summary:
                "'path' (endpoint/bucket/key) or 'virtual' (bucket.endpoint/key); path when endpoint is set, else virtual."
        ),
        BackendOption(
            "access_key_id",
            summary: "The access key id; with secret_access_key, overrides the environment and the credentials file."),
        BackendOption("secret_access_key", summary: "The secret access key."),
        BackendOption("session_token", summary: "The session token of temporary credentials."),
        BackendOption(
            "profile", summary: "The profile of the shared credentials file to use (default AWS_PROFILE, else default)."
        ),
        BackendOption(
            "credentials_file",
            summary: "The shared credentials file (default AWS_SHARED_CREDENTIALS_FILE, else ~/.aws/credentials)."),
        BackendOption(
            "versioning",
            summary:
                "'on' (the bucket keeps versions; default), 'enable' (turn bucket versioning on), or 'off' (no versions, no change feed)."
        ),
        BackendOption(
            "conditional_writes",
            summary:
                "'detect' (measure on the bucket which preconditions the server honours; default with an endpoint), 'atomic' (trust S3's own; default for AWS) or 'best_effort' (send none, check just before each write)."
        ),
        BackendOption("part_size", summary: "The multipart part size in bytes (default 8 MiB, at least 5 MiB)."),
        BackendOption(
            "single_upload_limit",
            summary: "Files up to this many bytes go up in one PutObject (default 8 MiB, at most 5 GiB)."),
        BackendOption(
            "minimum_part_size",
            summary:
                "The smallest part the server accepts (default 5 MiB, S3's rule); lower only for servers that accept less."
        ),
        BackendOption(
            "upload_concurrency",
            summary:
                "How many parts of a multipart upload go up at once (default 4, 1 to 16); each is streamed from the file."
        ),
        BackendOption("page_size", summary: "Changes per change-feed page (default 1000)."),
        BackendOption(
            "change_lookback_seconds",
            summary: "How far back the emulated change feed looks for late-listed versions (default 3600)."),
        .pollInterval,
        StratusHTTPClient.caFileOption,
    ]

    /// Builds an S3 service on its own, with a client of its own and no logger (see
    /// ``makeService(options:context:)``).
    /// - Parameter options: The remote's options; see ``options``.
    /// - Returns: An ``S3Service``.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidConfiguration`` naming the missing or bad
    ///   option, or when no credentials are found.
    public static func makeService(options: RemoteOptions) throws -> any Service {
        try makeService(options: options, context: BackendContext())
    }

    /// Builds an S3 service from a remote's options, sharing the context's HTTP client and
    /// logging to its logger.
    /// - Parameters:
    ///   - options: The remote's options; see ``options``.
    ///   - context: The registry's context.
    /// - Returns: An ``S3Service``.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidConfiguration`` naming the missing or bad
    ///   option, or when no credentials are found.
    public static func makeService(options: RemoteOptions, context: BackendContext) throws -> any Service {
        let environment = ProcessInfo.processInfo.environment
        let addressing: S3Configuration.Addressing?
        switch options.string("addressing")?.lowercased() {
        case nil, "": addressing = nil
        case "path": addressing = .path
        case "virtual", "virtual-hosted", "virtual_hosted": addressing = .virtualHosted
        case let other?:
            throw ServiceError(
                .invalidConfiguration,
                "Remote '\(options.remoteName)' option 'addressing' is \(other.debugDescription), which is not 'path' or 'virtual'."
            )
        }
        let versioning: S3Configuration.Versioning
        switch options.string("versioning")?.lowercased() {
        case nil, "", "on", "true", "yes": versioning = .required
        case "enable": versioning = .enable
        case "off", "false", "no": versioning = .off
        case let other?:
            throw ServiceError(
                .invalidConfiguration,
                "Remote '\(options.remoteName)' option 'versioning' is \(other.debugDescription), which is not 'on', 'enable' or 'off'."
            )
        }
        let conditionalWrites: S3Configuration.ConditionalWriteMode?
        switch options.string("conditional_writes")?.lowercased() {
        case nil, "": conditionalWrites = nil
        case "detect": conditionalWrites = .detect
        case "atomic": conditionalWrites = .atomic
        case "best_effort", "best-effort", "besteffort": conditionalWrites = .bestEffort
        case let other?:
            throw ServiceError(
                .invalidConfiguration,
                "Remote '\(options.remoteName)' option 'conditional_writes' is \(other.debugDescription), which is not 'detect', 'atomic' or 'best_effort'."
            )
        }
        let defaults = (partSize: Int64(8 * 1_048_576), single: Int64(8 * 1_048_576))
        let pollingSchedule = try options.pollingSchedule()
        let configuration: S3Configuration
        do {
            configuration = try S3Configuration(
                endpoint: try options.url("endpoint"),
                region: options.string("region") ?? environment["AWS_REGION"] ?? environment["AWS_DEFAULT_REGION"]
                    ?? "us-east-1",
                bucket: try options.requiredString("bucket"),
                root: options.string("root") ?? "",
                addressing: addressing,
                versioning: versioning,
                conditionalWrites: conditionalWrites,
                singleUploadLimit: try options.integer("single_upload_limit") ?? defaults.single,
                partSize: try options.integer("part_size") ?? defaults.partSize,
                minimumPartSize: try options.integer("minimum_part_size") ?? S3Configuration.s3MinimumPartSize,
                uploadConcurrency: Int(clamping: try options.integer("upload_concurrency") ?? 4),
                changePageSize: Int(clamping: try options.integer("page_size") ?? 1000),
                changeLookback: .seconds(try options.integer("change_lookback_seconds") ?? 3600),
                pollingSchedule: pollingSchedule
            )
        } catch let error as ServiceError where error.code == .invalidConfiguration {
            throw ServiceError(.invalidConfiguration, "Remote '\(options.remoteName)': \(error.message)")
        }
        let credentials: S3Credentials
        if let id = options.string("access_key_id"), !id.isEmpty {
            let secret = try options.requiredString("secret_access_key")
            credentials = S3Credentials(
                accessKeyID: id, secretAccessKey: secret,
                sessionToken: options.string("session_token").flatMap { $0.isEmpty ? nil : $0 })
        } else {
            do {
                credentials = try S3Credentials.resolve(
                    profile: options.string("profile").flatMap { $0.isEmpty ? nil : $0 },
                    file: options.string("credentials_file").flatMap {
                        $0.isEmpty ? nil : URL(filePath: NSString(string: $0).expandingTildeInPath)
                    },
                    environment: environment
                )
            } catch let error as ServiceError {
                throw ServiceError(.invalidConfiguration, "Remote '\(options.remoteName)': \(error.message)")
            }
        }
        return try S3Service(
            configuration: configuration,
            credentials: credentials,
            http: context.sharedHTTPClient(for: options),
            logger: context.logger
        )
    }
}
