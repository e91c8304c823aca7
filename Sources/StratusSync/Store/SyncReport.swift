import Foundation

/// What one ``SyncStore/sync()`` did.
public struct SyncReport: Sendable {
    /// Records taken from the remote.
    public var pulled: [RecordKey] = []
    /// Records written to the remote.
    public var pushed: [RecordKey] = []
    /// Conflicts settled by a policy during this sync.
    public var resolved: [RecordKey] = []
    /// Conflicts waiting for the app after this sync (all of them, not only new ones).
    public var conflicts: [RecordKey] = []
    /// Records that failed, each with its own error; the others went on.
    public var failures: [RecordFailure] = []
    /// Whether the change feed was replaced by a full listing (first sync, or a token the
    /// service no longer accepts).
    public var usedFullListing = false

    /// Creates an empty report (for tests and for apps that keep one to show).
    public init() {}

    /// Whether the sync finished with nothing failed and nothing waiting for the app.
    public var isClean: Bool { failures.isEmpty && conflicts.isEmpty }
}

/// A record the sync could not bring across, and why.
public struct RecordFailure: Sendable, CustomStringConvertible {
    /// The record.
    public var key: RecordKey
    /// The remote path involved.
    public var path: String
    /// What went wrong.
    public var error: SyncError

    /// The record key (`type/id`) followed by the error's description.
    public var description: String { "\(key): \(error)" }
}

/// How far a sync has come.
public struct SyncProgress: Hashable, Sendable {
    /// What the sync is doing.
    public enum Phase: String, Hashable, Sendable {
        /// Reading the change feed or listing the remote.
        case listing
        /// Fetching records and their files.
        case pulling
        /// Writing files and records.
        case pushing
    }

    /// The current phase.
    public var phase: Phase
    /// Records finished in this phase.
    public var completedRecords: Int
    /// Records this phase has to do.
    public var totalRecords: Int
    /// File and document bytes moved in this sync so far.
    public var transferredBytes: Int64
}

/// A change to a record in the store, as ``SyncStore/changes()`` reports it.
public struct RecordChange: Hashable, Sendable {
    /// Where the change came from.
    public enum Origin: String, Hashable, Sendable {
        /// The app on this device.
        case local
        /// Another device, through a sync.
        case remote
        /// A conflict policy or the app's resolution merged both sides.
        case merge
        /// A version was restored.
        case restore
    }

    /// What happened.
    public enum Kind: String, Hashable, Sendable {
        /// The record was created or edited.
        case updated
        /// The record was deleted.
        case deleted
        /// A conflict was found and waits for the app.
        case conflict
        /// The record was removed on this device and its last side went to the archive
        /// (``SyncStore/archivedRecords()``), not deleted by a device: its document vanished
        /// from the remote (removed by hand, or accepted with
        /// ``SyncStore/acceptRemoteDeletions()``), or the app adopted the remote
        /// (``SyncStore/adoptRemote()``).
        case archived
    }

    /// The record.
    public var key: RecordKey
    /// What happened.
    public var kind: Kind
    /// Where it came from.
    public var origin: Origin

    /// Creates a change (for tests and for apps that forward changes).
    public init(key: RecordKey, kind: Kind, origin: Origin) {
        self.key = key
        self.kind = kind
        self.origin = origin
    }
}
