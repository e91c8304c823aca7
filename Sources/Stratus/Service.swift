public import Foundation

/// A cloud storage service: one provider account (or local folder), seen through one root.
///
/// Every adapter (`local`, `dropbox`, `drive`, ...) conforms to this protocol, and the contract
/// suite in `StratusContract` checks that it keeps the promises written here. All calls:
/// - are safe to make from many tasks at once;
/// - stream content: no call holds a whole file in memory;
/// - honour task cancellation: a cancelled call throws ``ServiceError/Code/cancelled`` and leaves
///   neither a partial local file nor a half-written remote file;
/// - throw ``ServiceError`` and nothing else.
public protocol Service: Sendable {
    /// What this service can do and the limits it works within.
    var capabilities: ServiceCapabilities { get }

    /// Describes the file at a path.
    /// - Parameter path: The file's path.
    /// - Returns: The file's current description.
    /// - Throws: ``ServiceError/Code/notFound`` when no file is there (a folder is not a file).
    func metadata(of path: RemotePath) async throws -> RemoteFile

    /// Lists the files at or below a folder, recursively, in no promised order.
    /// - Parameter folder: The folder to list; ``RemotePath/root`` lists everything.
    /// - Returns: Every file below the folder (folders themselves are not listed).
    /// - Throws: ``ServiceError/Code/notFound`` when the folder does not exist; an empty root
    ///   lists as empty.
    func list(_ folder: RemotePath) async throws -> [RemoteFile]

    /// Writes content to a path, creating parent folders as needed.
    ///
    /// The write is all or nothing: readers see the old content or the new, never a mix. The
    /// content's hash is checked by the provider or the adapter before the call returns.
    /// - Parameters:
    ///   - source: The content.
    ///   - path: Where to write it.
    ///   - options: A precondition, custom metadata and a progress handler.
    /// - Returns: The new file, with its new version.
    /// - Throws: ``ServiceError/Code/conflict`` when the precondition does not hold (nothing is
    ///   written), ``ServiceError/Code/localFile`` when the source cannot be read.
    func upload(from source: UploadSource, to path: RemotePath, options: UploadOptions) async throws -> RemoteFile

    /// Reads a file's content into a local file.
    ///
    /// The destination is replaced atomically, and only by content whose hash matches the
    /// provider's: afterwards it holds either the complete, verified content or whatever it held
    /// before (nothing, if it did not exist). Parent folders of the destination must exist.
    /// - Parameters:
    ///   - path: The file to read.
    ///   - version: A version from ``versions(of:)``, or `nil` for the current content.
    ///   - destination: The local file to write.
    ///   - options: A progress handler.
    /// - Returns: The description of the content that was read.
    /// - Throws: ``ServiceError/Code/notFound`` for a missing file or version,
    ///   ``ServiceError/Code/integrityMismatch`` when the content does not match its hash.
    func download(_ path: RemotePath, version: VersionID?, to destination: URL, options: DownloadOptions) async throws
        -> RemoteFile

    /// Deletes a file. Its versions stay restorable where the provider keeps them.
    /// - Parameters:
    ///   - path: The file to delete.
    ///   - precondition: What must hold first; ``WritePrecondition/mustMatch(_:)`` deletes only
    ///     that version.
    /// - Throws: ``ServiceError/Code/notFound`` when nothing is there,
    ///   ``ServiceError/Code/conflict`` when the precondition does not hold.
    func delete(_ path: RemotePath, precondition: WritePrecondition) async throws

    /// A token for the current end of the change feed: changes made after this call will be
    /// reported by ``changes(since:)``.
    func latestChangeToken() async throws -> ChangeToken

    /// The changes made after a token was issued, oldest first, one page at a time.
    ///
    /// Every change after the token is reported at least once. Keep calling with
    /// ``ChangePage/nextToken`` while ``ChangePage/hasMore`` is true.
    /// - Parameter token: A token from ``latestChangeToken()`` or an earlier page, possibly saved
    ///   by an earlier process.
    /// - Throws: ``ServiceError/Code/invalidChangeToken`` when the provider no longer accepts the
    ///   token.
    func changes(since token: ChangeToken) async throws -> ChangePage

    /// Waits until the change feed has changes after a token, the timeout passes, or the task
    /// is cancelled, at the cost ``ServiceCapabilities/changeWaiting`` declares: a held request
    /// (longpoll), a notification from the store, or polls of ``changes(since:)`` on a
    /// ``PollingSchedule``. Services that declare nothing else poll (the default
    /// implementation).
    ///
    /// ```swift
    /// var token = try await service.latestChangeToken()
    /// while try await service.waitForChanges(after: token, timeout: .seconds(300)) == .changesAvailable {
    ///     let page = try await service.changes(since: token)
    ///     token = page.nextToken   // apply page.changes, then keep reading while page.hasMore
    /// }
    /// ```
    /// - Parameters:
    ///   - token: A token from ``latestChangeToken()`` or a page.
    ///   - timeout: The longest to wait; a service may answer ``ChangeWaitOutcome/timedOut`` a
    ///     little later than this, never much earlier.
    /// - Returns: ``ChangeWaitOutcome/changesAvailable`` when ``changes(since:)`` has something
    ///   to report (a service may wake early and report nothing new), or
    ///   ``ChangeWaitOutcome/timedOut``.
    /// - Throws: ``ServiceError/Code/invalidChangeToken`` for a token ``changes(since:)`` would
    ///   refuse, ``ServiceError/Code/cancelled`` promptly when the task is cancelled,
    ///   ``ServiceError/Code/unsupported`` when there is no change feed.
    func waitForChanges(after token: ChangeToken, timeout: Duration) async throws -> ChangeWaitOutcome

    /// The versions of a file the provider keeps, newest first. The first is the current one.
    /// - Throws: ``ServiceError/Code/notFound`` when the path never held a file the provider
    ///   remembers.
    func versions(of path: RemotePath) async throws -> [FileVersion]

    /// Makes an old version the current content again. History only grows: the version that was
    /// current stays in ``versions(of:)``.
    /// - Parameters:
    ///   - path: The file.
    ///   - version: A version from ``versions(of:)``.
    /// - Returns: The file as it is after the restore.
    /// - Throws: ``ServiceError/Code/notFound`` for an unknown version.
    func restore(_ path: RemotePath, to version: VersionID) async throws -> RemoteFile
}

extension Service {
    /// Writes content to a path with default options.
    /// - Parameters:
    ///   - source: The content.
    ///   - path: Where to write it.
    /// - Returns: The new file.
    /// - Throws: See ``Service/upload(from:to:options:)``.
    public func upload(from source: UploadSource, to path: RemotePath) async throws -> RemoteFile {
        try await upload(from: source, to: path, options: UploadOptions())
    }

    /// Reads a file's current content into a local file.
    /// - Throws: See ``Service/download(_:version:to:options:)``.
    public func download(_ path: RemotePath, to destination: URL) async throws -> RemoteFile {
        try await download(path, version: nil, to: destination, options: DownloadOptions())
    }

    /// Reads one version of a file into a local file.
    /// - Throws: See ``Service/download(_:version:to:options:)``.
    public func download(_ path: RemotePath, version: VersionID?, to destination: URL) async throws -> RemoteFile {
        try await download(path, version: version, to: destination, options: DownloadOptions())
    }

    /// Waits for changes by polling ``changes(since:)`` on the schedule of
    /// ``ServiceCapabilities/changeWaiting``: the behaviour of every service that does not wait
    /// in a better way.
    /// - Throws: See ``Service/waitForChanges(after:timeout:)``.
    public func waitForChanges(after token: ChangeToken, timeout: Duration) async throws -> ChangeWaitOutcome {
        try await pollForChanges(after: token, timeout: timeout, schedule: capabilities.changeWaiting.polling)
    }

    /// Waits for changes by asking ``changes(since:)`` on a schedule: at once, then after each
    /// interval of the schedule, following every page, until a page reports a change or the
    /// timeout passes. The default ``waitForChanges(after:timeout:)`` is this call on the
    /// schedule of ``ServiceCapabilities/changeWaiting``; an adapter that waits in a better way
    /// calls it for the times it has to fall back to polling.
    ///
    /// ```swift
    /// let outcome = try await service.pollForChanges(
    ///     after: token, timeout: .seconds(60), schedule: PollingSchedule(minimum: .seconds(1), maximum: .seconds(5)))
    /// ```
    /// - Parameters:
    ///   - token: A token from ``latestChangeToken()`` or a page.
    ///   - timeout: The longest to wait; one last poll is made when it passes.
    ///   - schedule: When to ask.
    /// - Returns: ``ChangeWaitOutcome/changesAvailable`` or ``ChangeWaitOutcome/timedOut``.
    /// - Throws: What ``changes(since:)`` throws (``ServiceError/Code/invalidChangeToken`` for a
    ///   refused token), ``ServiceError/Code/cancelled`` when the task is cancelled,
    ///   ``ServiceError/Code/unsupported`` when there is no change feed.
    public func pollForChanges(after token: ChangeToken, timeout: Duration, schedule: PollingSchedule) async throws
        -> ChangeWaitOutcome
    {
        try await ChangePoller(schedule: schedule).wait(on: self, after: token, timeout: timeout)
    }

    /// Deletes a file whatever its version.
    /// - Throws: See ``Service/delete(_:precondition:)``.
    public func delete(_ path: RemotePath) async throws {
        try await delete(path, precondition: .none)
    }
}
