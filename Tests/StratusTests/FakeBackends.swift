import Foundation
import Stratus

/// A service that remembers the options it was built with and refuses every call.
struct RecordingService: Service {
    let options: RemoteOptions

    var capabilities: ServiceCapabilities {
        ServiceCapabilities(
            hashAlgorithm: .sha256,
            largestSingleUpload: 1 << 20,
            chunkSize: 1 << 20,
            conditionalWrites: .unsupported,
            supportsVersions: false,
            changeFeed: .unavailable,
            supportsCustomMetadata: false,
            pathRules: PathRules(isCaseSensitive: true)
        )
    }

    private var refusal: ServiceError { ServiceError(.unsupported, "The recording service stores nothing.") }

    func metadata(of path: RemotePath) async throws -> RemoteFile { throw refusal }
    func list(_ folder: RemotePath) async throws -> [RemoteFile] { throw refusal }
    func upload(from source: UploadSource, to path: RemotePath, options: UploadOptions) async throws -> RemoteFile {
        throw refusal
    }
    func download(_ path: RemotePath, version: VersionID?, to destination: URL, options: DownloadOptions) async throws
        -> RemoteFile
    { throw refusal }
    func delete(_ path: RemotePath, precondition: WritePrecondition) async throws { throw refusal }
    func latestChangeToken() async throws -> ChangeToken { throw refusal }
    func changes(since token: ChangeToken) async throws -> ChangePage { throw refusal }
    func versions(of path: RemotePath) async throws -> [FileVersion] { throw refusal }
    func restore(_ path: RemotePath, to version: VersionID) async throws -> RemoteFile { throw refusal }
}

/// A folder-like backend: one required option, a secret, and typed options it checks.
enum FolderBackend: ServiceBackend {
    static let typeName = "folder"
    static let options = [
        BackendOption("root", summary: "The folder that holds the files.", isRequired: true),
        BackendOption("client_secret", summary: "A secret the backend does not check."),
        BackendOption("token_lifetime", summary: "Seconds a token lives; a secret-looking whole number."),
        BackendOption("read_only", summary: "Whether writes are refused."),
    ]

    static func makeService(options: RemoteOptions) throws -> any Service {
        _ = try options.requiredString("root")
        _ = try options.integer("token_lifetime")
        _ = try options.boolean("read_only")
        return RecordingService(options: options)
    }
}

/// A cloud-like backend with two required options.
enum DropboxLikeBackend: ServiceBackend {
    static let typeName = "dropbox"
    static let options = [
        BackendOption("app_key", summary: "The app's key.", isRequired: true),
        BackendOption("token_store", summary: "Where tokens are kept.", isRequired: true),
        BackendOption("base_url", summary: "The API's base URL."),
    ]

    static func makeService(options: RemoteOptions) throws -> any Service {
        _ = try options.url("base_url")
        return RecordingService(options: options)
    }
}

/// A backend whose construction fails with an error that is not a ``ServiceError``.
enum BrokenBackend: ServiceBackend {
    struct Failure: Error {}

    static let typeName = "broken"
    static let options: [BackendOption] = []

    static func makeService(options: RemoteOptions) throws -> any Service {
        throw Failure()
    }
}

/// A second registration under an existing type name, in another case.
enum ReplacementFolderBackend: ServiceBackend {
    static let typeName = "Folder"
    static let options = [BackendOption("path", summary: "The folder.", isRequired: true)]

    static func makeService(options: RemoteOptions) throws -> any Service {
        RecordingService(options: options)
    }
}
