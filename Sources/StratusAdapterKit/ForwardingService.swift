public import Foundation
public import Stratus

/// A ``/Stratus/Service`` in front of another that passes every call on to it: a decorator
/// (logging, metrics, a test's faults) writes only what it changes.
///
/// A conforming type names its ``base`` and gets every requirement for free: each runs
/// ``willForward(_:)`` (by default nothing) and then the same call on ``base``; the
/// capabilities are the base's. It implements ``willForward(_:)`` to look at or refuse calls,
/// and a requirement itself to change what that call does (then it calls ``willForward(_:)``
/// itself if it wants the hook to see the call).
///
/// ```swift
/// final class CountingService: ForwardingService {
///     let base: any Service
///     let uploads = Mutex(0)
///     init(_ base: any Service) { self.base = base }
///
///     func willForward(_ call: ServiceCall) async throws {
///         if case .upload = call { uploads.withLock { $0 += 1 } }
///     }
/// }
/// ```
public protocol ForwardingService: Service {
    /// The service that does the work.
    var base: any Service { get }

    /// Runs before each call is passed on to ``base``; a throw fails the call without passing
    /// it on. The default does nothing.
    func willForward(_ call: ServiceCall) async throws
}

extension ForwardingService {
    /// The base service's capabilities.
    public var capabilities: ServiceCapabilities { base.capabilities }

    /// Does nothing: every call is passed on.
    public func willForward(_ call: ServiceCall) async throws {}

    /// Runs ``willForward(_:)``, then the base service's ``/Stratus/Service/metadata(of:)``.
    public func metadata(of path: RemotePath) async throws -> RemoteFile {
        try await willForward(.metadata(path))
        return try await base.metadata(of: path)
    }

    /// Runs ``willForward(_:)``, then the base service's ``/Stratus/Service/list(_:)``.
    public func list(_ folder: RemotePath) async throws -> [RemoteFile] {
        try await willForward(.list(folder))
        return try await base.list(folder)
    }

    /// Runs ``willForward(_:)``, then the base service's
    /// ``/Stratus/Service/upload(from:to:options:)``.
    public func upload(from source: UploadSource, to path: RemotePath, options: UploadOptions) async throws
        -> RemoteFile
    {
        try await willForward(.upload(path, options))
        return try await base.upload(from: source, to: path, options: options)
    }

    /// Runs ``willForward(_:)``, then the base service's
    /// ``/Stratus/Service/download(_:version:to:options:)``.
    public func download(_ path: RemotePath, version: VersionID?, to destination: URL, options: DownloadOptions)
        async throws -> RemoteFile
    {
        try await willForward(.download(path, version: version))
        return try await base.download(path, version: version, to: destination, options: options)
    }

    /// Runs ``willForward(_:)``, then the base service's ``/Stratus/Service/delete(_:precondition:)``.
    public func delete(_ path: RemotePath, precondition: WritePrecondition) async throws {
        try await willForward(.delete(path, precondition: precondition))
        try await base.delete(path, precondition: precondition)
    }

    /// Runs ``willForward(_:)``, then the base service's ``/Stratus/Service/latestChangeToken()``.
    public func latestChangeToken() async throws -> ChangeToken {
        try await willForward(.latestChangeToken)
        return try await base.latestChangeToken()
    }

    /// Runs ``willForward(_:)``, then the base service's ``/Stratus/Service/changes(since:)``.
    public func changes(since token: ChangeToken) async throws -> ChangePage {
        try await willForward(.changes(since: token))
        return try await base.changes(since: token)
    }

    /// Runs ``willForward(_:)``, then the base service's
    /// ``/Stratus/Service/waitForChanges(after:timeout:)``, so the base's own way of waiting (a
    /// long poll, a notification, polling) is kept.
    public func waitForChanges(after token: ChangeToken, timeout: Duration) async throws -> ChangeWaitOutcome {
        try await willForward(.waitForChanges(after: token, timeout: timeout))
        return try await base.waitForChanges(after: token, timeout: timeout)
    }

    /// Runs ``willForward(_:)``, then the base service's ``/Stratus/Service/versions(of:)``.
    public func versions(of path: RemotePath) async throws -> [FileVersion] {
        try await willForward(.versions(path))
        return try await base.versions(of: path)
    }

    /// Runs ``willForward(_:)``, then the base service's ``/Stratus/Service/restore(_:to:)``.
    public func restore(_ path: RemotePath, to version: VersionID) async throws -> RemoteFile {
        try await willForward(.restore(path, to: version))
        return try await base.restore(path, to: version)
    }
}
