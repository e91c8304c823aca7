import Foundation
import Stratus
import Synchronization

/// A ``Stratus/Service`` in front of another that counts the calls made through it and lets a
/// test step in before an upload, for request counts in benchmarks and faults in tests.
public final class ObservedService: Service {
    /// The calls counted, by name: `metadata`, `list`, `upload`, `download`, `delete`,
    /// `latestChangeToken`, `changes`, `waitForChanges`, `versions`, `restore`.
    public var counts: [String: Int] { calls.withLock { $0 } }
    /// All calls counted.
    public var totalCalls: Int { counts.values.reduce(0, +) }

    private let base: any Service
    private let calls = Mutex<[String: Int]>([:])
    private let hook = Mutex<(@Sendable (RemotePath, UploadOptions) async throws -> Void)?>(nil)
    private let capabilityOverride: ServiceCapabilities?

    /// Wraps a service.
    /// - Parameters:
    ///   - base: The service that does the work.
    ///   - capabilities: Capabilities to report instead of the base's (a test can make a
    ///     service look best-effort).
    public init(_ base: any Service, capabilities: ServiceCapabilities? = nil) {
        self.base = base
        capabilityOverride = capabilities
    }

    /// Runs `body` before each upload; a throw fails the upload without sending it.
    public func beforeUpload(_ body: (@Sendable (RemotePath, UploadOptions) async throws -> Void)?) {
        hook.withLock { $0 = body }
    }

    /// Sets every count back to zero.
    public func resetCounts() {
        calls.withLock { $0 = [:] }
    }

    private func count(_ name: String) {
        calls.withLock { $0[name, default: 0] += 1 }
    }

    /// The capabilities given at creation, or else the base service's; not counted.
    public var capabilities: ServiceCapabilities { capabilityOverride ?? base.capabilities }

    /// Counts a `metadata` call and passes it to the base service.
    public func metadata(of path: RemotePath) async throws -> RemoteFile {
        count("metadata")
        return try await base.metadata(of: path)
    }

    /// Counts a `list` call and passes it to the base service.
    public func list(_ folder: RemotePath) async throws -> [RemoteFile] {
        count("list")
        return try await base.list(folder)
    }

    /// Counts an `upload` call, runs the ``beforeUpload(_:)`` hook, then passes it to the base service.
    public func upload(from source: UploadSource, to path: RemotePath, options: UploadOptions) async throws
        -> RemoteFile
    {
        count("upload")
        if let before = hook.withLock({ $0 }) { try await before(path, options) }
        return try await base.upload(from: source, to: path, options: options)
    }

    /// Counts a `download` call and passes it to the base service.
    public func download(_ path: RemotePath, version: VersionID?, to destination: URL, options: DownloadOptions)
        async throws -> RemoteFile
    {
        count("download")
        return try await base.download(path, version: version, to: destination, options: options)
    }

    /// Counts a `delete` call and passes it to the base service.
    public func delete(_ path: RemotePath, precondition: WritePrecondition) async throws {
        count("delete")
        try await base.delete(path, precondition: precondition)
    }

    /// Counts a `latestChangeToken` call and passes it to the base service.
    public func latestChangeToken() async throws -> ChangeToken {
        count("latestChangeToken")
        return try await base.latestChangeToken()
    }

    /// Counts a `changes` call and passes it to the base service.
    public func changes(since token: ChangeToken) async throws -> ChangePage {
        count("changes")
        return try await base.changes(since: token)
    }

    /// Counts a `waitForChanges` call and passes it to the base service, so the base's own way
    /// of waiting (a long poll, a notification) is kept; a base that polls is polled through
    /// this service instead, so that each poll counts as the `changes` request it is.
    public func waitForChanges(after token: ChangeToken, timeout: Duration) async throws -> ChangeWaitOutcome {
        count("waitForChanges")
        let waiting = capabilities.changeWaiting
        if waiting.mechanism == .polling {
            return try await pollForChanges(after: token, timeout: timeout, schedule: waiting.polling)
        }
        return try await base.waitForChanges(after: token, timeout: timeout)
    }

    /// Counts a `versions` call and passes it to the base service.
    public func versions(of path: RemotePath) async throws -> [FileVersion] {
        count("versions")
        return try await base.versions(of: path)
    }

    /// Counts a `restore` call and passes it to the base service.
    public func restore(_ path: RemotePath, to version: VersionID) async throws -> RemoteFile {
        count("restore")
        return try await base.restore(path, to: version)
    }
}
