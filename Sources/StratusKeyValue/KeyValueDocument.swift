import Foundation
import StratusSync

/// The whole key-value store as one record value, so a multi-key write is one commit:
/// `{"entries": {"KEY": ENTRY, ...}}`. An entry holds a value, or a counter's tallies by device,
/// or nothing for a removed key (kept, so a removal is not mistaken for a key never written),
/// with when and where it was last written.
struct KeyValueDocument: Hashable, Sendable {
    struct Tally: Hashable, Sendable {
        var added: Int64
        var spent: Int64
    }

    struct Entry: Hashable, Sendable {
        var value: KeyValue?
        var counter: [String: Tally]?
        /// A counter's generation: a counter removed and made again starts a new one, and the
        /// merge keeps the newer generation, so a reset is not undone by the old tallies.
        var generation: String?
        var modified: Date
        var device: String

        init(value: KeyValue?, counter: [String: Tally]?, generation: String? = nil, modified: Date, device: String) {
            self.value = value
            self.counter = counter
            self.generation = generation
            self.modified = modified
            self.device = device
        }

        var isRemoved: Bool { value == nil && counter == nil }

        /// What the entry reads as: its value, a counter's total, or nothing.
        var current: KeyValue? {
            if let counter { return .integer(Self.total(counter)) }
            return value
        }

        static func total(_ counter: [String: Tally]) -> Int64 {
            counter.values.reduce(Int64(0)) { sum, tally in
                // Totals are checked when tallies grow; a remote document past 64 bits saturates.
                let (withAdded, overflowA) = sum.addingReportingOverflow(tally.added)
                let (result, overflowB) = withAdded.subtractingReportingOverflow(tally.spent)
                return overflowA || overflowB ? (tally.added >= tally.spent ? .max : .min) : result
            }
        }

        /// Whether two entries say the same thing (when and where aside).
        func sameContent(as other: Entry?) -> Bool {
            guard let other else { return isRemoved }
            return value == other.value && counter == other.counter && generation == other.generation
        }
    }

    var entries: [String: Entry] = [:]

    // MARK: JSON

    var json: JSONValue {
        var object: [String: JSONValue] = [:]
        for (key, entry) in entries {
            var fields: [String: JSONValue] = [
                "modified": .string(KeyValue.dateStyle.format(entry.modified)),
                "device": .string(entry.device),
            ]
            if let value = entry.value { fields["value"] = value.json }
            if let counter = entry.counter {
                fields["counter"] = .object(
                    counter.mapValues { .object(["added": .integer($0.added), "spent": .integer($0.spent)]) })
            }
            if let generation = entry.generation { fields["generation"] = .string(generation) }
            object[key] = .object(fields)
        }
        return .object(["entries": .object(object)])
    }

    init() {}

    init(json: JSONValue) throws {
        guard case .object(let root) = json, case .object(let object)? = root["entries"] else {
            throw SyncError(.invalidDocument, "The key-value record has no \"entries\" object.")
        }
        for (key, value) in object {
            guard case .object(let fields) = value, case .string(let modifiedText)? = fields["modified"],
                let modified = try? KeyValue.dateStyle.parse(modifiedText),
                case .string(let device)? = fields["device"]
            else {
                throw SyncError(
                    .invalidDocument, "The entry \(key.debugDescription) needs \"modified\" and \"device\".")
            }
            var entry = Entry(value: nil, counter: nil, modified: modified, device: device)
            if let stored = fields["value"] { entry.value = try KeyValue(json: stored) }
            if case .object(let tallies)? = fields["counter"] {
                var counter: [String: Tally] = [:]
                for (owner, tally) in tallies {
                    guard case .object(let parts) = tally, case .integer(let added)? = parts["added"],
                        case .integer(let spent)? = parts["spent"],
                        added >= 0, spent >= 0
                    else {
                        throw SyncError(
                            .invalidDocument,
                            "The counter \(key.debugDescription) has a bad tally for \(owner.debugDescription).")
                    }
                    counter[owner] = Tally(added: added, spent: spent)
                }
                entry.counter = counter
                if case .string(let generation)? = fields["generation"] { entry.generation = generation }
            }
            entries[key] = entry
        }
    }

    /// The bytes the live entries take, as the limits count them: each key and its value as JSON.
    var usedBytes: Int {
        let encoder = JSONEncoder()
        return entries.reduce(0) { sum, item in
            guard let current = item.value.current else { return sum }
            return sum + item.key.utf8.count + ((try? encoder.encode(current.json).count) ?? 0)
        }
    }

    /// How many keys hold something.
    var liveKeyCount: Int { entries.values.filter { !$0.isRemoved }.count }
}

// MARK: Writes

/// A device's own writes, as pure changes of the document (the store adds the I/O around them).
extension KeyValueDocument {
    /// Sets a key; under a monotone rule the entry keeps the join of what it held and `value`.
    /// - Throws: ``StratusSync/SyncError`` (`invalidDocument`) for a value that does not survive JSON.
    mutating func set(_ value: KeyValue, forKey key: String, rule: MergeRule, device: String, at now: Date) throws {
        let canonical = try KeyValue(json: value.json)  // dates to the millisecond, as stored
        let stored =
            rule.isMonotone ? KeyValueMerge.join(rule, entries[key]?.value, canonical) ?? canonical : canonical
        entries[key] = .init(value: stored, counter: nil, modified: now, device: device)
    }

    /// Removes a key (kept as an entry with nothing in it, so the removal syncs like a write).
    mutating func remove(_ key: String, device: String, at now: Date) {
        guard let entry = entries[key], !entry.isRemoved else { return }
        entries[key] = .init(value: nil, counter: nil, modified: now, device: device)
    }

    /// Adds `amount` to `device`'s tally of a counter (a negative amount spends).
    /// - Returns: The counter's new total.
    /// - Throws: ``StratusSync/SyncError``: `typeMismatch` when the key holds a value, `overflow`.
    mutating func increment(_ key: String, by amount: Int64, device: String, at now: Date) throws -> Int64 {
        var entry = entries[key] ?? .init(value: nil, counter: [:], modified: now, device: device)
        if entry.isRemoved {
            // A new counter (or one made again after a removal) starts a generation of its own.
            entry.counter = [:]
            entry.generation = UUID().uuidString.lowercased()
        }
        guard var counter = entry.counter else {
            throw SyncError(
                .typeMismatch,
                "The key \(key.debugDescription) holds a value, not a counter; remove it first to make it a counter."
            )
        }
        var tally = counter[device] ?? .init(added: 0, spent: 0)
        let magnitude = amount == .min ? nil : abs(amount)
        guard let magnitude else { throw SyncError(.overflow, "Cannot spend \(amount).") }
        let (added, addOverflow) = tally.added.addingReportingOverflow(amount > 0 ? magnitude : 0)
        let (spent, spendOverflow) = tally.spent.addingReportingOverflow(amount < 0 ? magnitude : 0)
        guard !addOverflow, !spendOverflow else {
            throw SyncError(.overflow, "The counter \(key.debugDescription) would pass 64 bits.")
        }
        tally = .init(added: added, spent: spent)
        counter[device] = tally
        entry.counter = counter
        entry.value = nil
        entry.modified = now
        entry.device = device
        entries[key] = entry
        return Entry.total(counter)
    }
}
