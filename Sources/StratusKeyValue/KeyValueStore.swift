public import Foundation
public import Stratus
public import StratusSync
internal import Synchronization

/// A synced key-value store for settings and game progress: local first (always readable and
/// writable offline; it persists across restarts like `UserDefaults`), synced through any
/// ``/Stratus/Service`` by ``synchronize()``, with a merge rule per key so that a device that
/// played level 1 offline never overwrites level 13.
///
/// ```swift
/// let progress = try KeyValueStore(folder: appSupport.appending(path: "progress"), service: service,
///                                  configuration: KeyValueConfiguration(rules: [
///                                      .key("highestLevel", .highest),
///                                      .prefix("levels.", .perEntry(.perEntry(.highest))),
///                                      .key("unlocked", .union),
///                                  ]))
/// try progress.set(13, forKey: "highestLevel")
/// try progress.increment("coins", by: 5)
/// try await progress.synchronize()
/// ```
///
/// The whole store is one record of a ``/StratusSync/SyncStore``, so a multi-key write
/// (``set(_:)``) is atomic everywhere: other devices see all of its keys or none. See
/// <doc:ChoosingMergeRules>.
///
/// **Errors.** What the store refuses or cannot read itself is a ``KeyValueError``; a failure of
/// the sync store underneath (its local database, the service) is the
/// ``/StratusSync/SyncError`` it threw, passed on unchanged.
public final class KeyValueStore: Sendable {
    /// The record type of the store's record.
    static let recordType = "kv"

    /// The sync store underneath (its record types `kv` and `events` are this store's).
    public let syncStore: SyncStore
    /// The event log kept beside the values.
    public let events: EventLog
    /// The limits in force.
    public let limits: KeyValueLimits

    private let key: RecordKey
    private let merge: KeyValueMerge
    /// Serialises this store's writes (each reads the record, changes it, writes it back).
    private let writing = Mutex(())
    private let broadcaster = Broadcaster<KeyValueChange>(buffer: 1_000)
    /// The values as the app last learnt them: its own writes, and what the last notified
    /// sync brought. A sync's changes are what differs from it.
    private let seen: Mutex<KeyValueDocument>

    /// Opens the store, creating it when missing.
    /// - Parameters:
    ///   - folder: The local folder for the store.
    ///   - service: The service to sync through.
    ///   - configuration: Rules, limits and the remote folder.
    /// - Throws: ``KeyValueError``: `invalidDocument` when the store's record on this device is
    ///   damaged, `unsupportedFormat` when a later version of the app wrote it.
    ///   ``/StratusSync/SyncError``: `database` or `localFile` when the local state cannot be
    ///   opened, `invalidKey` when ``KeyValueConfiguration/remoteFolder`` is not a valid path.
    public init(folder: URL, service: any Service, configuration: KeyValueConfiguration = KeyValueConfiguration())
        throws
    {
        let recordKey = try RecordKey(type: Self.recordType, id: "store")
        var syncConfiguration = SyncConfiguration(
            remoteFolder: configuration.remoteFolder, deviceName: configuration.deviceName)
        // The merge needs this device's name, which the store may make itself: the closure reads
        // it from a box filled in once the store is open.
        let deviceBox = Mutex(configuration.deviceName ?? "")
        let rules = configuration.rules
        syncConfiguration.policies[Self.recordType] = .merge { input in
            let merger = KeyValueMerge(rules: rules, device: deviceBox.withLock { $0 })
            let local = try KeyValueDocument(json: input.local.value)
            let remote = try KeyValueDocument(json: input.remote.value)
            let base = try input.base.map { try KeyValueDocument(json: $0.value) }
            return .merged(merger.merge(base: base, local: local, remote: remote).json, files: [:])
        }
        syncConfiguration.policies[EventLog.recordType] = EventLog.policy
        let opened = try SyncStore(folder: folder, service: service, configuration: syncConfiguration)
        deviceBox.withLock { $0 = opened.deviceName }
        let stored = try opened.record(recordKey)
        syncStore = opened
        key = recordKey
        merge = KeyValueMerge(rules: rules, device: opened.deviceName)
        limits = configuration.limits
        // A damaged store fails here, not later.
        seen = Mutex(try stored.map { try KeyValueDocument(json: $0.value) } ?? KeyValueDocument())
        events = EventLog(store: opened)
    }

    // MARK: Reading

    /// The store as the sync store holds it now: the one source of truth, so a value another
    /// device's sync brought in is seen at once, and a write never starts from stale values.
    private func document() throws -> KeyValueDocument {
        try syncStore.record(key).map { try KeyValueDocument(json: $0.value) } ?? KeyValueDocument()
    }

    /// The value of a key (a counter reads as its total), or `nil` (also when the local state
    /// cannot be read, which is logged by the sync store).
    public func value(forKey key: String) -> KeyValue? {
        (try? document())?.entries[key]?.current
    }

    /// Every key that holds a value, sorted.
    public var keys: [String] {
        ((try? document())?.entries ?? [:]).filter { !$0.value.isRemoved }.map(\.key).sorted()
    }

    /// A Boolean, or `nil` when the key holds none.
    public func bool(forKey key: String) -> Bool? {
        if case .bool(let value)? = value(forKey: key) { value } else { nil }
    }

    /// An integer (a counter's total), or `nil` when the key holds none.
    public func integer(forKey key: String) -> Int64? {
        if case .integer(let value)? = value(forKey: key) { value } else { nil }
    }

    /// A number (an integer is converted), or `nil`.
    public func double(forKey key: String) -> Double? {
        value(forKey: key)?.number
    }

    /// A string, or `nil`.
    public func string(forKey key: String) -> String? {
        if case .string(let value)? = value(forKey: key) { value } else { nil }
    }

    /// Bytes, or `nil`.
    public func data(forKey key: String) -> Data? {
        if case .data(let value)? = value(forKey: key) { value } else { nil }
    }

    /// A date, or `nil`.
    public func date(forKey key: String) -> Date? {
        if case .date(let value)? = value(forKey: key) { value } else { nil }
    }

    /// An array, or `nil`.
    public func array(forKey key: String) -> [KeyValue]? {
        if case .array(let value)? = value(forKey: key) { value } else { nil }
    }

    /// A dictionary, or `nil`.
    public func dictionary(forKey key: String) -> [String: KeyValue]? {
        if case .dictionary(let value)? = value(forKey: key) { value } else { nil }
    }

    // MARK: Writing

    /// Sets one key.
    /// - Throws: What ``set(_:)`` throws.
    public func set(_ value: KeyValue, forKey key: String) throws {
        try set([key: value])
    }

    /// Sets several keys at once: all of them or none, here and on every other device.
    ///
    /// A key with a monotone rule (``MergeRule/highest``, ``MergeRule/union``, ...) keeps the
    /// join of what it held and the new value: setting 1 where 13 is stored under `.highest`
    /// leaves 13.
    /// - Throws: ``KeyValueError`` (nothing is written): `invalidKey` for an empty or over-long
    ///   key, `invalidValue` for a number that is not finite, `quotaExceeded` over a limit,
    ///   `overflow` when a counter the value replaces has been reset 2⁶³ − 1 times,
    ///   `invalidDocument` or `unsupportedFormat` when the store's record cannot be read.
    ///   ``/StratusSync/SyncError`` (`database`) when the local state cannot be read or written.
    public func set(_ values: [String: KeyValue]) throws {
        let device = syncStore.deviceName
        try change { document in
            let now = Date()
            for (key, value) in values {
                try check(key)
                try value.checkRepresentable("The value of \(key.debugDescription)")
                try document.set(value, forKey: key, rule: merge.rule(for: key), device: device, at: now)
            }
        }
    }

    /// Removes a key (the removal syncs like a write).
    ///
    /// Removing a counter resets it: the next increment starts it again from zero, in the
    /// counter's next generation, and increments other devices make to the removed counter
    /// before they have the removal are dropped when it reaches them (see <doc:ChoosingMergeRules>).
    /// - Throws: ``KeyValueError``: `overflow` for a counter that has been reset 2⁶³ − 1 times,
    ///   `invalidDocument` or `unsupportedFormat` when the store's record cannot be read.
    ///   ``/StratusSync/SyncError`` (`database`) when the local state cannot be read or written.
    public func removeValue(forKey key: String) throws {
        let device = syncStore.deviceName
        try change { document in
            try document.remove(key, device: device, at: Date())
        }
    }

    /// Adds to a counter (a negative amount spends). Each device keeps its own tally of what it
    /// added and spent, and devices merge tallies, so one device earning 5 and spending 2 while
    /// another earns 3 offline ends at 6 on both. An increment to a counter that another device
    /// has removed (reset), made before this device has the removal, is dropped once it has.
    /// - Returns: The counter's new total on this device.
    /// - Throws: ``KeyValueError`` (nothing is written): `typeMismatch` when the key holds a value
    ///   that is not a counter, `overflow` when this device's tally would pass 64 bits or the
    ///   amount is `Int64.min`, `invalidKey`, `quotaExceeded`, `invalidDocument` or
    ///   `unsupportedFormat` when the store's record cannot be read.
    ///   ``/StratusSync/SyncError`` (`database`) when the local state cannot be read or written.
    @discardableResult
    public func increment(_ key: String, by amount: Int64) throws -> Int64 {
        let device = syncStore.deviceName
        return try change { document in
            try check(key)
            return try document.increment(key, by: amount, device: device, at: Date())
        }
    }

    private func check(_ key: String) throws {
        guard !key.isEmpty, key.utf8.count <= limits.maximumKeyLength else {
            throw KeyValueError(
                .invalidKey,
                "A key must be 1 to \(limits.maximumKeyLength) UTF-8 bytes; \(key.debugDescription) is \(key.utf8.count)."
            )
        }
    }

    /// Applies a change to a copy of the document, checks the limits, writes it, and only then
    /// makes it current.
    private func change<T>(_ body: (inout KeyValueDocument) throws -> T) throws -> T {
        try writing.withLock { _ in
            let document = try document()
            var changed = document
            let result = try body(&changed)
            guard changed != document else { return result }
            let bytes = changed.usedBytes
            let grows = bytes > document.usedBytes || changed.liveKeyCount > document.liveKeyCount
            if grows, let problem = limitProblem(changed, bytes: bytes) {
                notify(KeyValueChange(reason: .quotaExceeded, keys: []))
                throw KeyValueError(.quotaExceeded, problem)
            }
            try syncStore.save(changed.json, as: key)
            seen.withLock { seen in
                for (name, entry) in changed.entries where document.entries[name] != entry {
                    seen.entries[name] = entry
                }
            }
            return result
        }
    }

    private func limitProblem(_ document: KeyValueDocument, bytes: Int? = nil) -> String? {
        if document.liveKeyCount > limits.maximumKeys {
            return
                "The store would hold \(document.liveKeyCount) keys; the limit is \(limits.maximumKeys). Nothing was written."
        }
        let bytes = bytes ?? document.usedBytes
        if bytes > limits.maximumTotalBytes {
            return "The store would take \(bytes) bytes; the limit is \(limits.maximumTotalBytes). Nothing was written."
        }
        return nil
    }

    // MARK: Syncing

    /// Pushes this device's changes and pulls the other devices', merging keys by their rules,
    /// and syncs the event log.
    /// - Returns: The keys that changed here because of other devices.
    /// - Throws: ``KeyValueError``: `unsupportedFormat` when the remote store's record was written
    ///   by a later format of the key-value store, `invalidDocument` when it cannot be merged
    ///   otherwise or this device's record cannot be read (local changes wait in both cases).
    ///   ``/StratusSync/SyncError``, as the sync store threw it: `service` when the remote cannot
    ///   be reached (the local values stay as they were), `cancelled`, `database`, a safety rail
    ///   (`remoteReplaced`, `massDeletion`, `unsupportedFormat` for a later sync format), or the
    ///   error of the store's record or an event record that did not sync.
    @discardableResult
    public func synchronize() async throws -> [String] {
        let before = try document()
        let report = try await syncStore.sync()
        if let failure = report.failures.first(where: { $0.key == key || $0.key.type == EventLog.recordType }) {
            throw failure.error
        }
        if report.conflicts.contains(key) {
            // A remote document this version cannot read says why itself (a later format).
            if let conflict = try syncStore.conflicts().first(where: { $0.key == key }), !conflict.remote.isDeleted {
                _ = try KeyValueDocument(json: conflict.remote.value)
            }
            throw KeyValueError(
                .invalidDocument,
                "The store's record could not be merged with the remote one (a document this version cannot read); local changes wait until it can."
            )
        }
        if try document().entries.isEmpty, !before.entries.isEmpty {
            // The remote lost the store (another account, or removed by hand): write ours again.
            try syncStore.save(before.json, as: key)
            _ = try? await syncStore.sync()
            let keys = before.entries.filter { !$0.value.isRemoved }.map(\.key).sorted()
            seen.withLock { $0 = before }
            notify(KeyValueChange(reason: .accountChanged, keys: keys))
            return keys
        }
        return try reportChanges(after: report)
    }

    // MARK: Ways out

    /// Seeds the remote again from this device: the way out of a remote that was replaced or
    /// emptied (``/StratusSync/SyncError/Code/remoteReplaced``) or of a mass deletion that keeps
    /// this device's values. See ``/StratusSync/SyncStore/reseedRemote()``; call
    /// ``synchronize()`` next.
    /// - Throws: ``/StratusSync/SyncError``, as the sync store threw it.
    public func reseedRemote() async throws {
        try await syncStore.reseedRemote()
    }

    /// Adopts the remote as it is: the way out of a replaced remote that takes the remote's
    /// values. This device's values go to the sync store's archive
    /// (``/StratusSync/SyncStore/archivedRecords()``), and the next ``synchronize()`` reports
    /// the remote's keys as an ``KeyValueChange/Reason/initialSync``. Values set here and not
    /// synced yet are in the archive too. See ``/StratusSync/SyncStore/adoptRemote()``.
    /// - Throws: ``/StratusSync/SyncError``, as the sync store threw it.
    public func adoptRemote() async throws {
        try await syncStore.adoptRemote()
        seen.withLock { $0 = KeyValueDocument() }
    }

    /// Lets the next ``synchronize()`` apply the removals that stopped a sync with
    /// ``/StratusSync/SyncError/Code/massDeletion``. See
    /// ``/StratusSync/SyncStore/acceptRemoteDeletions()``.
    /// - Throws: ``/StratusSync/SyncError`` (`database`) when the local state cannot be written.
    public func acceptRemoteDeletions() throws {
        try syncStore.acceptRemoteDeletions()
    }

    /// An ``/StratusSync/AutomaticSync`` that keeps this store (and its event log) in sync by
    /// itself: values set on one device reach the others' ``externalChanges()`` without a call
    /// to ``synchronize()``.
    ///
    /// ```swift
    /// let syncing = Task { try await progress.automaticSync().run() }
    /// for await change in progress.externalChanges() { refresh(change.keys) }
    /// ```
    /// - Parameter configuration: The schedule.
    public func automaticSync(_ configuration: AutomaticSyncConfiguration = AutomaticSyncConfiguration())
        -> AutomaticSync
    {
        AutomaticSync(store: syncStore, configuration: configuration) { [weak self] report in
            _ = try? self?.reportChanges(after: report)
        }
    }

    /// Tells ``externalChanges()`` which keys a sync changed: those that differ from what the
    /// app last learnt.
    private func reportChanges(after report: SyncReport) throws -> [String] {
        let after = try document()
        let before = seen.withLock { seen in
            defer { seen = after }
            return seen
        }
        let changed = Set(before.entries.keys).union(after.entries.keys).filter { key in
            before.entries[key]?.current != after.entries[key]?.current
        }.sorted()
        if !changed.isEmpty {
            let reason: KeyValueChange.Reason =
                report.usedFullListing && before.entries.isEmpty ? .initialSync : .changedOnAnotherDevice
            notify(KeyValueChange(reason: reason, keys: changed))
        }
        if limitProblem(after) != nil {
            notify(KeyValueChange(reason: .quotaExceeded, keys: changed))
        }
        return changed
    }

    /// The changes to keys that did not come from this device's own writes (other devices, the
    /// first sync, limits, an account change). Each call makes a new sequence.
    public func externalChanges() -> AsyncStream<KeyValueChange> {
        broadcaster.stream()
    }

    private func notify(_ change: KeyValueChange) {
        broadcaster.send([change])
    }
}
