/// What an adversarial run did, counted, so a note can quote "N simulated operations, 0 lost
/// writes".
public struct SimulationCounts: Sendable, Hashable {
    /// Acknowledged saves (save calls that returned).
    public var saves = 0
    /// Acknowledged deletes.
    public var deletes = 0
    /// Explicit `sync()` calls.
    public var explicitSyncs = 0
    /// Explicit syncs that threw (the remote could not be read, a rail stopped them, a kill).
    public var failedSyncs = 0
    /// Sync runs the stores started, explicit and automatic (seen in their status).
    public var syncRuns = 0
    /// Times a device's process was killed mid-sync and its store reopened from its folder.
    public var kills = 0
    /// Stretches a device spent offline.
    public var offlineStretches = 0
    /// Times a device's automatic sync was started.
    public var automaticStarts = 0
    /// Faults injected by a mock's fault rules (delays, statuses, lost answers).
    public var wireFaults = 0
    /// Faults injected in front of the service, by kind (`5xx`, `429`, `lost answer`, `delay`,
    /// `feed re-read`, `404 download`, `listing omission`, `offline`).
    public var serviceFaults: [String: Int] = [:]
    /// Conflicts resolved by the simulated users.
    public var conflictsResolvedByUsers = 0
    /// Times a safety rail (mass deletion) stopped a sync.
    public var safetyRails = 0
    /// Acknowledged writes found current, archived or in a conflict.
    public var writesCurrentOrArchived = 0
    /// Acknowledged writes found only in the record's version history.
    public var writesInHistory = 0
    /// Acknowledged writes the same device replaced before any sync pushed them (the user's own
    /// choice, not a loss).
    public var writesSupersededLocally = 0
    /// Acknowledged writes of union-merged records found in the final value on every device.
    public var unionWritesKept = 0
    /// Acknowledged writes that could not be looked for: not current or archived, on a
    /// service without version history.
    public var writesUnverifiable = 0
    /// Records compared across the devices (records × devices).
    public var recordsCompared = 0
    /// Times a device's union-merged value was seen, after a step, without an id it held after
    /// the step before (it came back later, or the final check reports it).
    public var transientUnionShrinks = 0

    /// All faults injected.
    public var faultsInjected: Int { wireFaults + serviceFaults.values.reduce(0, +) }
    /// Every simulated operation: saves, deletes, sync runs, kills, offline stretches and faults.
    public var operations: Int { saves + deletes + syncRuns + kills + offlineStretches + faultsInjected }

    /// Creates empty counts.
    public init() {}

    /// Adds another run's counts to these.
    /// - Parameter other: The other run's counts.
    public mutating func add(_ other: SimulationCounts) {
        saves += other.saves
        deletes += other.deletes
        explicitSyncs += other.explicitSyncs
        failedSyncs += other.failedSyncs
        syncRuns += other.syncRuns
        kills += other.kills
        offlineStretches += other.offlineStretches
        automaticStarts += other.automaticStarts
        wireFaults += other.wireFaults
        serviceFaults.merge(other.serviceFaults, uniquingKeysWith: +)
        conflictsResolvedByUsers += other.conflictsResolvedByUsers
        safetyRails += other.safetyRails
        writesCurrentOrArchived += other.writesCurrentOrArchived
        writesInHistory += other.writesInHistory
        writesSupersededLocally += other.writesSupersededLocally
        unionWritesKept += other.unionWritesKept
        writesUnverifiable += other.writesUnverifiable
        recordsCompared += other.recordsCompared
        transientUnionShrinks += other.transientUnionShrinks
    }

    /// Several lines: operations, faults, then what the checker found for the writes.
    public var summary: String {
        let faults = serviceFaults.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        return """
            operations: \(operations) (\(saves) saves, \(deletes) deletes, \(syncRuns) sync runs of which \(explicitSyncs) explicit (\(failedSyncs) threw), \(kills) kills, \(offlineStretches) offline stretches, \(automaticStarts) automatic-sync starts, \(faultsInjected) faults)
            faults: \(wireFaults) by the mock's rules; in front of the service: \(faults.isEmpty ? "none" : faults); \(safetyRails) safety-rail stops
            writes: \(writesCurrentOrArchived) current or archived, \(writesInHistory) in history, \(writesSupersededLocally) replaced locally before a push, \(unionWritesKept) union ids kept on every device (\(transientUnionShrinks) times a union value was seen without an id it held), \(writesUnverifiable) unverifiable (no history); \(recordsCompared) records compared; \(conflictsResolvedByUsers) conflicts resolved by users
            """
    }
}
