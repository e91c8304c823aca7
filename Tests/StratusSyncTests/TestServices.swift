import Foundation
import Stratus
import StratusAdapterKit
import Synchronization

/// A service in front of another whose behaviour a test scripts:
/// - ``loseNextAnswer(to:)``: the next upload to a path happens but answers with a network
///   error, as when a connection drops after the provider committed the write;
/// - ``rejectNextToken()``: the next ``changes(since:)`` throws `invalidChangeToken`;
/// - ``failDownloads(of:)``: every download of a path fails with a network error;
/// - ``refuseNextHistory()``: the next ``versions(of:)`` is refused with a 429;
/// - `withoutFeed`: no change feed at all (as S3 with versioning off);
/// - `checkThenWrite`: best-effort preconditions in the way Drive has them: the precondition is
///   checked, then ``setBetween(_:)``'s closure runs (where a test lets another writer in), then
///   the write happens unconditionally.
final class ScriptedService: ForwardingService {
    let base: any Service
    private let withoutFeed: Bool
    private let checkThenWrite: Bool
    private let losing = Mutex<RemotePath?>(nil)
    private let rejectToken = Mutex(false)
    private let refuseHistory = Mutex(false)
    private let failing = Mutex<Set<RemotePath>>([])
    private let between = Mutex<(@Sendable (RemotePath) async throws -> Void)?>(nil)

    init(_ base: any Service, withoutFeed: Bool = false, checkThenWrite: Bool = false) {
        self.base = base
        self.withoutFeed = withoutFeed
        self.checkThenWrite = checkThenWrite
    }

    func loseNextAnswer(to path: RemotePath) { losing.withLock { $0 = path } }
    func rejectNextToken() { rejectToken.withLock { $0 = true } }
    func refuseNextHistory() { refuseHistory.withLock { $0 = true } }
    func failDownloads(of path: RemotePath) { _ = failing.withLock { $0.insert(path) } }
    /// Runs once, between the check and the write of the next conditional upload.
    func setBetween(_ body: (@Sendable (RemotePath) async throws -> Void)?) { between.withLock { $0 = body } }

    var capabilities: ServiceCapabilities {
        var capabilities = base.capabilities
        if withoutFeed {
            capabilities.changeFeed = .unavailable
            capabilities.changeWaiting = .unavailable
        }
        if checkThenWrite { capabilities.conditionalWrites = .bestEffort }
        return capabilities
    }

    func willForward(_ call: ServiceCall) async throws {
        switch call {
        case .latestChangeToken, .waitForChanges:
            if withoutFeed { throw ServiceError(.unsupported, "No change feed.") }
        case .changes:
            if withoutFeed { throw ServiceError(.unsupported, "No change feed.") }
            let reject = rejectToken.withLock { reject in
                defer { reject = false }
                return reject
            }
            if reject { throw ServiceError(.invalidChangeToken, "The token expired.") }
        case .download(let path, _):
            if failing.withLock({ $0.contains(path) }) {
                throw ServiceError(.network, "A scripted network failure downloading \(path).")
            }
        case .versions:
            let refuse = refuseHistory.withLock { refuse in
                defer { refuse = false }
                return refuse
            }
            if refuse { throw ServiceError(.rateLimited, "A scripted 429 listing versions.") }
        default:
            break
        }
    }

    func upload(from source: UploadSource, to path: RemotePath, options: UploadOptions) async throws -> RemoteFile {
        var sent = options
        if checkThenWrite, options.precondition != .none {
            try await check(options.precondition, at: path)
            if let hook = between.withLock({ hook in
                defer { hook = nil }
                return hook
            }) {
                try await hook(path)
            }
            sent.precondition = .none
        }
        let written = try await base.upload(from: source, to: path, options: sent)
        let loseIt = losing.withLock { target in
            defer { if target == path { target = nil } }
            return target == path
        }
        if loseIt { throw ServiceError(.network, "The connection dropped before the answer arrived.") }
        return written
    }

    private func check(_ precondition: WritePrecondition, at path: RemotePath) async throws {
        try precondition.check(current: try await base.metadataIfPresent(of: path)?.version, at: path)
    }
}

/// A service whose link a test controls: while ``isOffline`` every call fails at once with a
/// network error, as on a device without a connection; and the next ``failuresLeft`` calls
/// (waiting aside) fail with a server error, as a provider answering 503; while ``hangs``, every
/// call but a wait for changes hangs until its task is cancelled (``hanging`` counts them), as a
/// request the server never answers.
final class SwitchableService: ForwardingService {
    let base: any Service
    private let offline = Mutex(false)
    private let failures = Mutex(0)
    let hangs = Mutex(false)
    let hanging = Mutex(0)

    init(_ base: any Service) { self.base = base }

    var isOffline: Bool {
        get { offline.withLock { $0 } }
        set { offline.withLock { $0 = newValue } }
    }

    var failuresLeft: Int {
        get { failures.withLock { $0 } }
        set { failures.withLock { $0 = newValue } }
    }

    func willForward(_ call: ServiceCall) async throws {
        if isOffline { throw ServiceError(.network, "The network is down (test).") }
        if case .waitForChanges = call { return }
        if hangs.withLock({ $0 }) {
            hanging.withLock { $0 += 1 }
            try await Task.sleep(for: .seconds(3600))
        }
        let fail = failures.withLock { left in
            guard left > 0 else { return false }
            left -= 1
            return true
        }
        if fail { throw ServiceError(.server, "503 Service Unavailable (test).") }
    }
}
