import Foundation
import Stratus
import Synchronization

/// A service whose next upload to one path, once armed, happens but answers with a network
/// error, as when a connection drops after the provider committed the write.
final class LostAnswerService: Service {
    private let base: any Service
    private let path: RemotePath
    private let armed = Mutex(false)

    init(_ base: any Service, losing path: RemotePath) {
        self.base = base
        self.path = path
    }

    private let rejectToken = Mutex(false)

    func arm() { armed.withLock { $0 = true } }
    /// The next ``changes(since:)`` throws `invalidChangeToken`.
    func rejectNextToken() { rejectToken.withLock { $0 = true } }

    var capabilities: ServiceCapabilities { base.capabilities }
    func metadata(of path: RemotePath) async throws -> RemoteFile { try await base.metadata(of: path) }
    func list(_ folder: RemotePath) async throws -> [RemoteFile] { try await base.list(folder) }
    func upload(from source: UploadSource, to path: RemotePath, options: UploadOptions) async throws -> RemoteFile {
        let written = try await base.upload(from: source, to: path, options: options)
        let loseIt = path == self.path && armed.withLock { armed in
            defer { armed = false }
            return armed
        }
        if loseIt { throw ServiceError(.network, "The connection dropped before the answer arrived.") }
        return written
    }
    func download(_ path: RemotePath, version: VersionID?, to destination: URL, options: DownloadOptions) async throws -> RemoteFile {
        try await base.download(path, version: version, to: destination, options: options)
    }
    func delete(_ path: RemotePath, precondition: WritePrecondition) async throws { try await base.delete(path, precondition: precondition) }
    func latestChangeToken() async throws -> ChangeToken { try await base.latestChangeToken() }
    func changes(since token: ChangeToken) async throws -> ChangePage {
        if rejectToken.withLock({ reject in defer { reject = false }; return reject }) {
            throw ServiceError(.invalidChangeToken, "The token expired.")
        }
        return try await base.changes(since: token)
    }
    func versions(of path: RemotePath) async throws -> [FileVersion] { try await base.versions(of: path) }
    func restore(_ path: RemotePath, to version: VersionID) async throws -> RemoteFile { try await base.restore(path, to: version) }
}

/// A best-effort service: it checks a precondition, then runs `between` (where a test lets
/// another writer in), then writes unconditionally.
final class CheckThenWriteService: Service {
    private let base: any Service
    private let between: Mutex<(@Sendable (RemotePath) async throws -> Void)?>

    init(_ base: any Service) {
        self.base = base
        between = Mutex(nil)
    }

    func setBetween(_ body: (@Sendable (RemotePath) async throws -> Void)?) { between.withLock { $0 = body } }

    var capabilities: ServiceCapabilities {
        var capabilities = base.capabilities
        capabilities.conditionalWrites = .bestEffort
        return capabilities
    }
    func metadata(of path: RemotePath) async throws -> RemoteFile { try await base.metadata(of: path) }
    func list(_ folder: RemotePath) async throws -> [RemoteFile] { try await base.list(folder) }
    func upload(from source: UploadSource, to path: RemotePath, options: UploadOptions) async throws -> RemoteFile {
        switch options.precondition {
        case .none:
            return try await base.upload(from: source, to: path, options: options)
        case .mustMatch(let expected):
            guard try await base.metadata(of: path).version == expected else {
                throw ServiceError(.conflict, "The file changed.")
            }
        case .mustNotExist:
            do {
                _ = try await base.metadata(of: path)
                throw ServiceError(.conflict, "The file exists.")
            } catch let error as ServiceError where error.code == .notFound {
                // Absent: go on.
            }
        }
        if let hook = between.withLock({ hook in defer { hook = nil }; return hook }) { try await hook(path) }
        var unconditional = options
        unconditional.precondition = .none
        return try await base.upload(from: source, to: path, options: unconditional)
    }
    func download(_ path: RemotePath, version: VersionID?, to destination: URL, options: DownloadOptions) async throws -> RemoteFile {
        try await base.download(path, version: version, to: destination, options: options)
    }
    func delete(_ path: RemotePath, precondition: WritePrecondition) async throws { try await base.delete(path, precondition: precondition) }
    func latestChangeToken() async throws -> ChangeToken { try await base.latestChangeToken() }
    func changes(since token: ChangeToken) async throws -> ChangePage { try await base.changes(since: token) }
    func versions(of path: RemotePath) async throws -> [FileVersion] { try await base.versions(of: path) }
    func restore(_ path: RemotePath, to version: VersionID) async throws -> RemoteFile { try await base.restore(path, to: version) }
}

/// A service with no change feed (as S3 with versioning off): the feed calls are unsupported.
final class NoFeedService: Service {
    private let base: any Service

    init(_ base: any Service) {
        self.base = base
    }

    var capabilities: ServiceCapabilities {
        var capabilities = base.capabilities
        capabilities.changeFeed = .unavailable
        return capabilities
    }
    func metadata(of path: RemotePath) async throws -> RemoteFile { try await base.metadata(of: path) }
    func list(_ folder: RemotePath) async throws -> [RemoteFile] { try await base.list(folder) }
    func upload(from source: UploadSource, to path: RemotePath, options: UploadOptions) async throws -> RemoteFile {
        try await base.upload(from: source, to: path, options: options)
    }
    func download(_ path: RemotePath, version: VersionID?, to destination: URL, options: DownloadOptions) async throws -> RemoteFile {
        try await base.download(path, version: version, to: destination, options: options)
    }
    func delete(_ path: RemotePath, precondition: WritePrecondition) async throws { try await base.delete(path, precondition: precondition) }
    func latestChangeToken() async throws -> ChangeToken { throw ServiceError(.unsupported, "No change feed.") }
    func changes(since token: ChangeToken) async throws -> ChangePage { throw ServiceError(.unsupported, "No change feed.") }
    func versions(of path: RemotePath) async throws -> [FileVersion] { try await base.versions(of: path) }
    func restore(_ path: RemotePath, to version: VersionID) async throws -> RemoteFile { try await base.restore(path, to: version) }
}
