import Foundation
import Stratus
import StratusAdapterKit
import Synchronization

/// A ``Stratus/Service`` in front of another that counts the calls made through it and lets a
/// test step in before an upload, for request counts in benchmarks and faults in tests.
public final class ObservedService: ForwardingService {
    /// The calls counted, by ``StratusAdapterKit/ServiceCall/name``: `metadata`, `list`,
    /// `upload`, `download`, `delete`, `latestChangeToken`, `changes`, `waitForChanges`,
    /// `versions`, `restore`.
    public var counts: [String: Int] { calls.withLock { $0 } }
    /// All calls counted.
    public var totalCalls: Int { counts.values.reduce(0, +) }

    /// The service that does the work.
    public let base: any Service
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

    /// The capabilities given at creation, or else the base service's; not counted.
    public var capabilities: ServiceCapabilities { capabilityOverride ?? base.capabilities }

    /// Counts the call, and runs the ``beforeUpload(_:)`` hook before an upload.
    public func willForward(_ call: ServiceCall) async throws {
        calls.withLock { $0[call.name, default: 0] += 1 }
        if case .upload(let path, let options) = call, let before = hook.withLock({ $0 }) {
            try await before(path, options)
        }
    }

    /// Counts a `waitForChanges` call and passes it to the base service, so the base's own way
    /// of waiting (a long poll, a notification) is kept; a base that polls is polled through
    /// this service instead, so that each poll counts as the `changes` request it is.
    public func waitForChanges(after token: ChangeToken, timeout: Duration) async throws -> ChangeWaitOutcome {
        try await willForward(.waitForChanges(after: token, timeout: timeout))
        let waiting = capabilities.changeWaiting
        if waiting.mechanism == .polling {
            return try await pollForChanges(after: token, timeout: timeout, schedule: waiting.polling)
        }
        return try await base.waitForChanges(after: token, timeout: timeout)
    }
}
