public import Foundation
public import Logging
public import Stratus
import StratusFileSystem
import Synchronization

/// A ``/Stratus/Service`` over a folder on this machine that behaves like a cloud provider: every write
/// is a new version, preconditions are atomic, and a change feed reports every change.
///
/// ```swift
/// let service = try LocalService(root: URL(filePath: "/var/lib/mygame/cloud"))
/// let saved = try await service.upload(from: .file(slot), to: try RemotePath("saves/slot-1.json"))
/// let history = try await service.versions(of: saved.path)
/// ```
///
/// **Layout.** Each file's current content is visible at its own path under the root, so a
/// person can look at it. The service's state lives in the hidden folder `.stratus` at the top
/// of the root: the content of every kept version, a record per file (versions, custom
/// metadata, stable id), the change journal and a lock file. Paths inside `.stratus` are
/// refused with ``/Stratus/ServiceError/Code/invalidPath``. The visible files are a mirror the service
/// writes: read them freely, but change them only through the API. A file added by hand is not
/// listed, a file removed by hand drops out of ``list(_:)`` (its versions stay), and the
/// service always reads content from its kept versions, checking each against its SHA-256.
///
/// **Writes.** Content streams in 1 MiB pieces into the state folder's `staging` folder, hashed
/// with SHA-256 on the way and flushed to the disk, without holding any lock. Then, holding an
/// exclusive `flock(2)` on `.stratus/lock`, the service checks the precondition and the path,
/// appends the change to the journal and renames the content into place. The lock is taken by
/// every change in every process, so preconditions are atomic across processes sharing the root.
///
/// **Paths.** Names are compared byte for byte: case-sensitive (as Linux file systems are; keep
/// the root on a case-sensitive file system), with no Unicode normalization (`café` in NFC and
/// in NFD are two files). A name may be at most 255 UTF-8 bytes. A file cannot be written where
/// a folder is, nor below another file (``/Stratus/ServiceError/Code/conflict``). Folders are created as
/// needed and stay after their files are deleted, as on most providers.
///
/// **Versions.** Version ids are numbers counting up per path, never reused, even across a
/// delete. The oldest versions beyond ``maximumVersions`` are pruned. A delete keeps the
/// versions: ``versions(of:)`` lists them and ``restore(_:to:)`` brings the file back.
///
/// All blocking file work runs on Dispatch threads, not on the Swift concurrency pool.
public final class LocalService: Service {
    /// The default number of versions kept per file.
    public static let defaultMaximumVersions = 100
    /// The default chunk size reported in the capabilities: 8 MiB.
    public static let defaultChunkSize: Int64 = 8 * 1_048_576
    /// The default number of changes in one page of the change feed.
    public static let defaultChangePageSize = 500

    /// The root folder.
    public let root: URL
    /// The most versions kept per file.
    public let maximumVersions: Int
    /// What the local backend can do.
    public let capabilities: ServiceCapabilities

    let store: LocalStore
    /// Where waiters learn of journal writes.
    let watcher: JournalWatcher
    /// Where the fallback to polling is reported.
    let logger: Logger
    /// Whether the fallback to polling was logged as a warning already.
    let reportedFallback = Atomic<Bool>(false)

    /// Opens (or sets up) a local store.
    ///
    /// Several instances, in one process or several, may share a root: their changes exclude
    /// each other through the store's lock, and change tokens of one are valid in the others.
    /// - Parameters:
    ///   - root: The folder that holds the files. It is created if missing, but its parent must
    ///     exist (so a mistyped path does not silently start an empty store).
    ///   - maximumVersions: How many versions to keep per file, at least 1; older ones are
    ///     pruned.
    ///   - chunkSize: The chunk size to report in ``capabilities``; the local backend does not
    ///     chunk, but the contract suite picks its boundary sizes from it.
    ///   - changePageSize: The most changes returned by one call to ``changes(since:)``.
    ///   - logger: Where to report that waiting for changes fell back to polling (inotify
    ///     unavailable); nothing else is logged.
    /// - Throws: ``/Stratus/ServiceError`` (`invalidConfiguration`) for a bad value or a root that is
    ///   not a usable folder; `permissionDenied` or `localFile` when the state folder cannot be
    ///   set up.
    public convenience init(
        root: URL,
        maximumVersions: Int = LocalService.defaultMaximumVersions,
        chunkSize: Int64 = LocalService.defaultChunkSize,
        changePageSize: Int = LocalService.defaultChangePageSize,
        logger: Logger = Logger(label: "stratus.local", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws {
        try self.init(
            root: root, maximumVersions: maximumVersions, chunkSize: chunkSize, changePageSize: changePageSize,
            logger: logger, watcher: .shared)
    }

    /// Opens (or sets up) a local store whose waiters use a given journal watcher (a disabled
    /// one in tests of the polling fallback).
    init(
        root: URL,
        maximumVersions: Int,
        chunkSize: Int64,
        changePageSize: Int,
        logger: Logger,
        watcher: JournalWatcher
    ) throws {
        guard maximumVersions >= 1 else {
            throw ServiceError(
                .invalidConfiguration,
                "The local backend must keep at least 1 version per file; \(maximumVersions) was asked for.")
        }
        guard chunkSize >= 1 else {
            throw ServiceError(
                .invalidConfiguration,
                "The local backend's chunk size must be at least 1 byte; \(chunkSize) was asked for.")
        }
        guard changePageSize >= 1 else {
            throw ServiceError(
                .invalidConfiguration,
                "The local backend's change page size must be at least 1; \(changePageSize) was asked for.")
        }
        let root = root.standardizedFileURL
        let rootPath = root.withUnsafeFileSystemRepresentation { $0.map { String(cString: $0) } } ?? root.path
        let trimmed = rootPath.count > 1 && rootPath.hasSuffix("/") ? String(rootPath.dropLast()) : rootPath
        do {
            self.store = try LocalStore(root: trimmed, maximumVersions: maximumVersions, changePageSize: changePageSize)
        } catch let error as FileSystemError {
            throw error.serviceError(while: "set up the local store at \(trimmed)")
        }
        self.root = root
        self.maximumVersions = maximumVersions
        self.logger = logger
        self.watcher = watcher
        self.capabilities = ServiceCapabilities(
            hashAlgorithm: .sha256,
            largestSingleUpload: .max,
            chunkSize: chunkSize,
            conditionalWrites: .atomic,
            supportsVersions: true,
            changeFeed: .native,
            supportsCustomMetadata: true,
            pathRules: PathRules(isCaseSensitive: true, forbiddenCharacters: [], maximumComponentLength: 255),
            changeWaiting: LocalService.changeWaiting
        )
    }

    /// Describes the current file at a path, from its record.
    /// - Parameter path: The file's path.
    /// - Returns: The file at its current version.
    /// - Throws: ``/Stratus/ServiceError`` (`notFound`) when no file is there (a folder is not a file),
    ///   `invalidPath` for a path inside `.stratus`.
    public func metadata(of path: RemotePath) async throws -> RemoteFile {
        try validate(path)
        let store = self.store
        return try await perform("describe \(path)") { _ in try store.metadata(of: path) }
    }

    /// Lists the files below a folder, recursively, by walking the visible folders and keeping
    /// the files whose records say they exist; `.stratus` is never walked.
    /// - Parameter folder: The folder; ``/Stratus/RemotePath/root`` lists everything.
    /// - Returns: Every file below the folder, in no promised order.
    /// - Throws: ``/Stratus/ServiceError`` (`notFound`) when the folder does not exist.
    public func list(_ folder: RemotePath) async throws -> [RemoteFile] {
        try validate(folder)
        let store = self.store
        return try await perform("list \(folder.isRoot ? "the root" : folder.string)") { _ in try store.list(folder) }
    }

    /// Writes content to a path as a new version: received into staging without the lock, then
    /// checked and committed under it.
    /// - Parameters:
    ///   - source: The content.
    ///   - path: Where to write it; not the root.
    ///   - options: A precondition (checked atomically), custom metadata (`nil` keeps the
    ///     current metadata, empty clears it) and a progress handler.
    /// - Returns: The new file.
    /// - Throws: ``/Stratus/ServiceError``: `conflict` when the precondition does not hold or a folder or
    ///   file is in the way, `localFile` when the source cannot be read, `cancelled`,
    ///   `quotaExceeded` when the disk is full, `invalidPath`.
    public func upload(from source: UploadSource, to path: RemotePath, options: UploadOptions) async throws
        -> RemoteFile
    {
        try validate(path, naming: "write")
        let store = self.store
        return try await perform("write \(path)") { cancellation in
            try store.upload(from: source, to: path, options: options, cancellation: cancellation)
        }
    }

    /// Reads a version's content into a local file: copied next to the destination, checked
    /// against its recorded SHA-256, flushed, and renamed over the destination.
    /// - Parameters:
    ///   - path: The file.
    ///   - version: A kept version, or `nil` for the current one; a deleted file's versions can
    ///     still be read.
    ///   - destination: The local file; its folder must exist.
    ///   - options: A progress handler.
    /// - Returns: The file at the version read.
    /// - Throws: ``/Stratus/ServiceError``: `notFound` for a missing file or version,
    ///   `integrityMismatch` when the stored content does not match its hash, `cancelled`,
    ///   `localFile` when the destination cannot be written. The destination is untouched then.
    public func download(_ path: RemotePath, version: VersionID?, to destination: URL, options: DownloadOptions)
        async throws -> RemoteFile
    {
        try validate(path)
        let store = self.store
        return try await perform("download \(path) to \(destination.path)") { cancellation in
            try store.download(
                path, version: version, to: destination, progress: options.progress, cancellation: cancellation)
        }
    }

    /// Deletes a file; its versions stay listed and restorable.
    /// - Parameters:
    ///   - path: The file.
    ///   - precondition: What must hold first, checked atomically.
    /// - Throws: ``/Stratus/ServiceError`` (`notFound`, `conflict`).
    public func delete(_ path: RemotePath, precondition: WritePrecondition) async throws {
        try validate(path, naming: "delete")
        let store = self.store
        try await perform("delete \(path)") { _ in try store.delete(path, precondition: precondition) }
    }

    /// A token for the end of the change journal, valid for every instance on this root.
    /// - Returns: The token.
    /// - Throws: ``/Stratus/ServiceError`` (`localFile`) when the journal cannot be read.
    public func latestChangeToken() async throws -> ChangeToken {
        let store = self.store
        return try await perform("read the change journal") { _ in try store.latestChangeToken() }
    }

    /// The changes after a token, oldest first, at most the page size at a time.
    /// - Parameter token: A token from this root.
    /// - Returns: The page.
    /// - Throws: ``/Stratus/ServiceError`` (`invalidChangeToken`) for a token from another root, from
    ///   before the journal was replaced, or not issued by a local store.
    public func changes(since token: ChangeToken) async throws -> ChangePage {
        let store = self.store
        return try await perform("read the change journal") { _ in try store.changes(since: token) }
    }

    /// The kept versions of a path, newest first, including those of a deleted file.
    /// - Parameter path: The file.
    /// - Returns: The versions.
    /// - Throws: ``/Stratus/ServiceError`` (`notFound`) when the path never held a file.
    public func versions(of path: RemotePath) async throws -> [FileVersion] {
        try validate(path)
        let store = self.store
        return try await perform("list the versions of \(path)") { _ in try store.versions(of: path) }
    }

    /// Makes a kept version's content current again as a new version, keeping the file's custom
    /// metadata; it also brings back a deleted file.
    /// - Parameters:
    ///   - path: The file.
    ///   - version: A kept version.
    /// - Returns: The file after the restore.
    /// - Throws: ``/Stratus/ServiceError``: `notFound` for an unknown or pruned version, `conflict` when a
    ///   folder now stands at the path, `integrityMismatch` when the kept content is damaged.
    public func restore(_ path: RemotePath, to version: VersionID) async throws -> RemoteFile {
        try validate(path, naming: "restore")
        let store = self.store
        return try await perform("restore \(path) to version \(version)") { cancellation in
            try store.restore(path, to: version, cancellation: cancellation)
        }
    }

    /// Checks a path against the capability descriptor's rules and keeps callers out of the
    /// state folder.
    /// - Parameters:
    ///   - path: The path.
    ///   - action: For calls that change a file, the verb; the root is refused for them.
    /// - Throws: ``/Stratus/ServiceError`` (`invalidPath`).
    private func validate(_ path: RemotePath, naming action: String? = nil) throws {
        if path.components.first == StoreLayout.stateFolderName {
            throw ServiceError(
                .invalidPath,
                "The path \(path) is inside \(StoreLayout.stateFolderName), the folder where the local backend keeps its own state; it cannot be read or changed through the API. Choose another name."
            )
        }
        if let action, path.isRoot {
            throw ServiceError(
                .invalidPath,
                "Cannot \(action) the root: it is a folder. Name a file below it, such as saves/slot-1.json.")
        }
        try capabilities.pathRules.validate(path)
    }

    /// Runs store work off the concurrency pool and turns file system failures into the
    /// ``/Stratus/ServiceError`` a caller sees; the call is observed as every adapter's is
    /// (``/Stratus/StratusTelemetry/observeServiceCall(backend:function:isolation:_:)``), the
    /// local backend's entry point being this one.
    /// - Parameters:
    ///   - action: What is being done, phrased to follow "could not".
    ///   - function: The ``/Stratus/Service`` requirement calling, whose base name is the span's
    ///     operation (never `action`, which names paths).
    ///   - work: The work.
    func perform<Result: Sendable>(
        _ action: String,
        function: String = #function,
        _ work: @escaping @Sendable (CancellationFlag) throws -> Result
    ) async throws -> Result {
        try await StratusTelemetry.observeServiceCall(backend: "local", function: function) {
            try await performUnobserved(action, work)
        }
    }

    /// ``perform(_:function:_:)`` without its span.
    private func performUnobserved<Result: Sendable>(
        _ action: String,
        _ work: @escaping @Sendable (CancellationFlag) throws -> Result
    ) async throws -> Result {
        if Task.isCancelled {
            throw ServiceError(
                .cancelled, "The call to \(action) was cancelled before it started; nothing was changed.")
        }
        do {
            return try await BlockingWork.run(work)
        } catch let error as ServiceError {
            throw error
        } catch let error as FileSystemError {
            throw error.serviceError(while: action)
        } catch {
            throw ServiceError(.localFile, "Could not \(action): \(error).", underlying: error)
        }
    }
}
