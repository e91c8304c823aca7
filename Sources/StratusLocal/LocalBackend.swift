import Foundation
public import Stratus

/// The `local` backend: builds a ``LocalService`` from a remote's options.
///
/// A local service takes only the logger from a registry's ``/Stratus/BackendContext``: it has
/// no HTTP client to share, and logs only that waiting for changes fell back to polling.
///
/// ```json
/// { "remotes": { "saves": { "type": "local", "options": { "root": "~/GameSaves", "max_versions": "20" } } } }
/// ```
public enum LocalBackend: ServiceBackend {
    /// `"local"`.
    public static let typeName = "local"

    /// `root` (required), `max_versions` and `chunk_size`.
    public static let options: [BackendOption] = [
        BackendOption(
            "root",
            summary: "The folder that holds the files; Stratus keeps its state in a hidden .stratus folder inside it.",
            isRequired: true
        ),
        BackendOption(
            "max_versions",
            summary:
                "How many versions to keep per file (default \(LocalService.defaultMaximumVersions)); the oldest are pruned beyond it."
        ),
        BackendOption(
            "chunk_size",
            summary:
                "The chunk size in bytes the service reports in its capabilities (default \(LocalService.defaultChunkSize))."
        ),
    ]

    /// Builds a local service.
    /// - Parameter options: The remote's options: `root` (a path; `~` is expanded), and
    ///   optionally `max_versions` (at least 1) and `chunk_size` (at least 1).
    /// - Returns: A ``LocalService``.
    /// - Throws: ``/Stratus/ServiceError`` (`invalidConfiguration`) naming a missing `root` or a bad
    ///   value, or what ``LocalService/init(root:maximumVersions:chunkSize:changePageSize:logger:)``
    ///   throws.
    public static func makeService(options: RemoteOptions) throws -> any Service {
        try makeService(options: options, context: BackendContext())
    }

    /// Builds a local service that logs to the context's logger.
    /// - Parameters:
    ///   - options: The remote's options; see ``makeService(options:)``.
    ///   - context: The registry's context.
    /// - Returns: A ``LocalService``.
    /// - Throws: What ``makeService(options:)`` throws.
    public static func makeService(options: RemoteOptions, context: BackendContext) throws -> any Service {
        let root = try options.requiredString("root")
        let maximumVersions = try options.integer("max_versions") ?? Int64(LocalService.defaultMaximumVersions)
        guard maximumVersions >= 1, maximumVersions <= Int64(Int32.max) else {
            throw ServiceError(
                .invalidConfiguration,
                "Remote '\(options.remoteName)' option 'max_versions' is \(maximumVersions); it must be between 1 and \(Int32.max)."
            )
        }
        let chunkSize = try options.integer("chunk_size") ?? LocalService.defaultChunkSize
        guard chunkSize >= 1 else {
            throw ServiceError(
                .invalidConfiguration,
                "Remote '\(options.remoteName)' option 'chunk_size' is \(chunkSize); it must be a positive number of bytes."
            )
        }
        let expanded = NSString(string: root).expandingTildeInPath
        return try LocalService(
            root: URL(filePath: expanded), maximumVersions: Int(maximumVersions), chunkSize: chunkSize,
            logger: context.logger)
    }
}
