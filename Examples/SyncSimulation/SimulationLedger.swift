import StratusSync

/// What the history checker knows of a run: every acknowledged save and delete (a call that
/// returned), in order, and what it saw of each device after each step.
struct SimulationLedger {
    /// One acknowledged operation.
    struct Entry {
        /// Its place in the ledger's order.
        var sequence: Int
        /// The step that made it.
        var step: Int
        /// The device.
        var device: Int
        /// The record.
        var key: RecordKey
        /// The write id saved (for a `tally` record, the one id the save added); `nil` for a delete.
        var write: String?
    }

    /// What one device held after the last step.
    struct Seen {
        var keys = Set<RecordKey>()
        var tallies: [RecordKey: Set<String>] = [:]
        var impurePages = 0
        var documentDeletions = 0
    }

    let seed: UInt64
    private(set) var entries: [Entry] = []
    private(set) var deleted = Set<RecordKey>()
    private(set) var problems: [SimulationProblem] = []
    /// The first step at which a device's union value lost an id, by record.
    private(set) var firstUnionLoss: [RecordKey: Int] = [:]
    /// Whether a step removed a document by hand (then the feed rightly reports deletions).
    var documentsRemovedByHand = false
    /// How often a device's union value was seen without an id it held before.
    private(set) var transientUnionShrinks = 0
    private var seen: [Int: Seen] = [:]
    private var reported = Set<String>()
    /// The description of each step, by number.
    private(set) var stepDescriptions: [Int: String] = [:]

    init(seed: UInt64) {
        self.seed = seed
    }

    mutating func describe(step: Int, as text: String) {
        stepDescriptions[step] = text
    }

    mutating func acknowledge(step: Int, device: Int, key: RecordKey, write: String?) {
        entries.append(Entry(sequence: entries.count, step: step, device: device, key: key, write: write))
        if write == nil { deleted.insert(key) }
    }

    mutating func report(_ promise: SimulationProblem.Promise, step: Int?, _ detail: String, once: String? = nil) {
        if let once {
            guard reported.insert(once).inserted else { return }
        }
        problems.append(
            SimulationProblem(
                promise: promise, seed: seed, step: step, stepDescription: step.flatMap { stepDescriptions[$0] },
                detail: detail))
    }

    /// Compares what a device holds now with what it held after the last step: a record that
    /// left without any device's delete, or a union value that lost an id, is a problem at this
    /// step; so is a change page that lost a deletion when read again.
    mutating func observe(
        step: Int, device: Int, name: String, store: SyncStore, impurePages: [String], documentDeletions: [String]
    ) throws {
        var now = Seen()
        for type in SimulationSchedule.types {
            for record in try store.records(ofType: type) {
                now.keys.insert(record.key)
                if type == "tally" { now.tallies[record.key] = SimulationValues.tally(of: record) }
            }
        }
        now.impurePages = impurePages.count
        now.documentDeletions = documentDeletions.count
        let before = seen[device] ?? Seen()
        for key in before.keys.subtracting(now.keys) where !deleted.contains(key) {
            report(
                .noVanishing, step: step, "\(key) left \(name), and no device deleted it",
                once: "vanish \(key) \(device)")
        }
        for (key, ids) in before.tallies {
            guard let current = now.tallies[key], !ids.isSubset(of: current) else { continue }
            // Not a broken promise by itself (the id may come back in a later merge), but the
            // first such step is where a union write that ends up lost was first seen gone.
            if firstUnionLoss[key] == nil { firstUnionLoss[key] = step }
            transientUnionShrinks += 1
        }
        for line in impurePages.dropFirst(before.impurePages) {
            report(.changePageIsPure, step: step, "\(name): \(line)")
        }
        if !documentsRemovedByHand {
            for path in documentDeletions.dropFirst(before.documentDeletions) {
                report(
                    .noPhantomDeletions, step: step,
                    "\(name)'s change feed reported \(path) deleted, but no document was removed",
                    once: "phantom \(path)")
            }
        }
        seen[device] = now
    }
}
