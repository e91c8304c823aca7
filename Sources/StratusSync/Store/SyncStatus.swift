public import Foundation
import Synchronization

/// Where a store's syncing stands, as ``SyncStore/status`` and ``SyncStore/statusUpdates()``
/// report it. A failure is never silent: it stays in the status until a sync succeeds.
///
/// ```swift
/// for await status in store.statusUpdates() {
///     switch status {
///     case .idle: banner = nil
///     case .syncing(let progress): banner = "Syncing \(progress?.completedRecords ?? 0)…"
///     case .offline(let since, _): banner = "Offline since \(since)"
///     case .failing(let error, let next): banner = "Sync failed: \(error.message); next try \(String(describing: next))"
///     case .needsAttention(let conflicts, let quarantined): banner = "\(conflicts.count) conflicts, \(quarantined.count) unreadable"
///     }
/// }
/// ```
public enum SyncStatus: Sendable, CustomStringConvertible {
    /// Nothing to do: the last sync (if any) finished cleanly at that time.
    case idle(lastSynced: Date?)
    /// A sync runs; its progress once it has some.
    case syncing(SyncProgress?)
    /// The service cannot be reached (a network failure or a timeout); automatic sync tries
    /// again at the next attempt (`nil` without automatic sync).
    case offline(since: Date, nextAttempt: Date?)
    /// The last sync failed with this error; automatic sync tries again at the next attempt
    /// (`nil` without automatic sync, or for an error that needs the app, such as
    /// `remoteReplaced`).
    case failing(SyncError, nextAttempt: Date?)
    /// The last sync finished, and records wait for the app: conflicts to resolve, and records
    /// whose remote documents are quarantined (unreadable).
    case needsAttention(conflicts: [RecordKey], quarantined: [RecordKey])

    /// A short description, such as `offline since 2026-11-26 20:00:00 +0000`.
    public var description: String {
        switch self {
        case .idle(let last): last.map { "idle, last synced \($0)" } ?? "idle, never synced"
        case .syncing(let progress):
            progress.map { "syncing (\($0.phase.rawValue) \($0.completedRecords)/\($0.totalRecords))" } ?? "syncing"
        case .offline(let since, let next): "offline since \(since)" + (next.map { ", next attempt \($0)" } ?? "")
        case .failing(let error, let next): "failing: \(error)" + (next.map { ", next attempt \($0)" } ?? "")
        case .needsAttention(let conflicts, let quarantined):
            "needs attention: \(conflicts.count) conflicts, \(quarantined.count) quarantined"
        }
    }

    /// Whether this status is ``offline(since:nextAttempt:)``.
    public var isOffline: Bool {
        if case .offline = self { true } else { false }
    }

    /// Whether a sync runs.
    public var isSyncing: Bool {
        if case .syncing = self { true } else { false }
    }
}

/// Holds a store's current ``SyncStatus`` and hands each change to the open sequences.
final class StatusBoard: Sendable {
    private struct Current {
        var status: SyncStatus
        /// When the service was first found unreachable, until a sync gets through.
        var offlineSince: Date?
    }

    private let current: Mutex<Current>
    private let broadcaster = Broadcaster<SyncStatus>(buffer: 64)

    init(_ initial: SyncStatus) {
        current = Mutex(Current(status: initial))
    }

    var status: SyncStatus { current.withLock { $0.status } }

    /// A sequence starting with the current status.
    func updates() -> AsyncStream<SyncStatus> {
        current.withLock { current in broadcaster.stream(startingWith: current.status) }
    }

    /// Sets the status (a sync starting, or one that got through).
    func set(_ status: SyncStatus) {
        current.withLock { current in
            if !status.isSyncing { current.offlineSince = nil }
            current.status = status
            broadcaster.send([status])
        }
    }

    /// Changes the status only while it is the one `matching` accepts (progress after the run
    /// ended must not bring "syncing" back).
    func update(if matching: (SyncStatus) -> Bool, to status: SyncStatus) {
        current.withLock { current in
            guard matching(current.status) else { return }
            current.status = status
            broadcaster.send([status])
        }
    }

    /// A sync failed: offline for a network failure or a timeout (since the first such failure
    /// in a row), failing otherwise.
    func failed(_ error: SyncError, nextAttempt: Date?) {
        current.withLock { current in
            if Self.isOffline(error) {
                let since = current.offlineSince ?? Date()
                current.offlineSince = since
                current.status = .offline(since: since, nextAttempt: nextAttempt)
            } else {
                current.offlineSince = nil
                current.status = .failing(error, nextAttempt: nextAttempt)
            }
            broadcaster.send([current.status])
        }
    }

    /// Whether an error means the service cannot be reached.
    static func isOffline(_ error: SyncError) -> Bool {
        guard let code = error.serviceCode else { return false }
        return code == .network || code == .timeout
    }

    func finish() {
        broadcaster.finish()
    }
}
