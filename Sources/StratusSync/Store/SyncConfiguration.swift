public import Logging
import Stratus

/// How a ``SyncStore`` works: where its data lives on the service, its conflict policies and
/// how many transfers it runs at once.
public struct SyncConfiguration: Sendable {
    /// The folder on the service that holds the synced data; every device of the app must use
    /// the same one. Default `stratus-sync`.
    public var remoteFolder: String
    /// This device's name in record documents. Default: a random id made once and kept in the
    /// store.
    public var deviceName: String?
    /// The conflict policy per record type.
    public var policies: [String: ConflictPolicy]
    /// The policy for record types not in ``policies``. Default ``ConflictPolicy/manual``.
    public var defaultPolicy: ConflictPolicy
    /// How many records move at once (a record's own files move one after another). Default 8.
    public var maximumConcurrentTransfers: Int
    /// The largest share (0 to 1) of this device's live records that one sync may remove because
    /// their documents vanished from the remote (removed by hand or by another tool, not deleted
    /// by a device, which writes a tombstone). A pull that would remove more stops with
    /// ``SyncError/Code/massDeletion`` before applying anything; see
    /// ``SyncStore/acceptRemoteDeletions()``. Default 0.5; 1 turns the check off.
    public var massDeletionLimit: Double
    /// The number of vanished records at or below which ``massDeletionLimit`` is not checked, so
    /// a small store can lose a few records by hand. Default 5.
    public var massDeletionMinimum: Int
    /// Receives progress during a sync, from any task; keep it quick.
    public var progress: (@Sendable (SyncProgress) -> Void)?
    /// Where the store logs what it does.
    public var logger: Logger
    /// Called at named points of a sync, so tests can stop the process there.
    package var checkpoint: (@Sendable (SyncCheckpoint) -> Void)?

    /// Creates a configuration.
    /// - Parameters:
    ///   - remoteFolder: The folder on the service for the synced data.
    ///   - deviceName: This device's name; `nil` for a random id kept in the store.
    ///   - policies: Conflict policies by record type.
    ///   - defaultPolicy: The policy for other types.
    ///   - maximumConcurrentTransfers: How many transfers run at once (at least 1).
    ///   - massDeletionLimit: The largest share of live records one sync may remove because
    ///     their documents vanished.
    ///   - massDeletionMinimum: How many vanished records are always allowed.
    ///   - logger: Where the store logs.
    public init(
        remoteFolder: String = "stratus-sync",
        deviceName: String? = nil,
        policies: [String: ConflictPolicy] = [:],
        defaultPolicy: ConflictPolicy = .manual,
        maximumConcurrentTransfers: Int = 8,
        massDeletionLimit: Double = 0.5,
        massDeletionMinimum: Int = 5,
        logger: Logger = Logger(label: "StratusSync")
    ) {
        self.massDeletionLimit = massDeletionLimit
        self.massDeletionMinimum = massDeletionMinimum
        self.remoteFolder = remoteFolder
        self.deviceName = deviceName
        self.policies = policies
        self.defaultPolicy = defaultPolicy
        self.maximumConcurrentTransfers = maximumConcurrentTransfers
        self.logger = logger
    }

    func policy(for type: String) -> ConflictPolicy {
        policies[type] ?? defaultPolicy
    }
}

/// Named points of a sync where a test may stop the process, to prove nothing is lost there.
package enum SyncCheckpoint: String, CaseIterable, Sendable {
    /// A file's content is halfway downloaded.
    case blobDownloading = "blob-downloading"
    /// A remote record and its files are fetched, not yet applied locally.
    case documentFetched = "document-fetched"
    /// Inside the local transaction that applies a pulled record.
    case localCommit = "local-commit"
    /// A record's files are uploaded; its document is not written yet.
    case blobsUploaded = "blobs-uploaded"
    /// A record's document is written on the remote; the local state does not know yet.
    case documentCommitted = "document-committed"
}
