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
