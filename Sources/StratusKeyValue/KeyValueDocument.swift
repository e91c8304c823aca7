internal import Foundation
internal import StratusSync

/// The whole key-value store as one record value, so a multi-key write is one commit:
/// `{"format": 2, "entries": {"KEY": ENTRY, ...}}`. An entry holds a value, or a counter's
/// tallies by device, or nothing for a removed key (kept, so a removal is not mistaken for a key
/// never written), with when and where it was last written, and the key's generation.
///
/// **Formats.** Format 1 (no `"format"` field) had no ordered generations: a counter made again
/// after a removal carried a random id in `"generation"`. Format 2 numbers the generations. A
/// format-1 document still reads: an entry without a generation is generation 0, and a counter
/// with a random id is generation 1 (it came after one removal at least). A document of a later
/// format is refused with `unsupportedFormat`.
struct KeyValueDocument: Hashable, Sendable {
    /// The format this version writes; it reads this one and format 1.
    static let currentFormat: Int64 = 2

    struct Tally: Hashable, Sendable {
        var added: Int64
        var spent: Int64
    }

    struct Entry: Hashable, Sendable {
        var value: KeyValue?
        var counter: [String: Tally]?
        /// How many times the key stopped being a counter (a removal or a plain value replaced
        /// it): the next counter counts in the next generation. A merge keeps the later
        /// generation whole, so a reset is not undone by the tallies before it, and increments
        /// made to an earlier generation after it (by a device that had not seen the reset)
        /// are dropped. Clocks play no part.
        var generation: Int64
        var modified: Date
        var device: String

        init(value: KeyValue?, counter: [String: Tally]?, generation: Int64 = 0, modified: Date, device: String) {
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

        /// A counter's total: every device's additions minus every device's spending.
        static func total(_ counter: [String: Tally]) -> Int64 {
            total(of: counter.values)
        }

        /// The exact sum of the tallies, clamped once to 64 bits, so it is the same in every
        /// order (a dictionary's order differs from device to device).
        static func total(of tallies: some Sequence<Tally>) -> Int64 {
            // Each part is below 2⁶³ and there are fewer than 2⁶³ tallies, so every partial sum
            // stays below 2¹²⁶ in magnitude: 128 bits never overflow, whatever the order.
            let exact = tallies.reduce(Int128(0)) { sum, tally in sum + Int128(tally.added) - Int128(tally.spent) }
            return Int64(clamping: exact)
        }

        /// Whether two entries say the same thing (when and where aside).
        func sameContent(as other: Entry?) -> Bool {
            guard let other else { return isRemoved }
            return value == other.value && counter == other.counter && generation == other.generation
        }

        /// The generation a write that ends this entry's counter starts: the next one for a
        /// counter, this one for anything else.
        func generationAfterEndingCounter(_ key: String) throws -> Int64 {
            guard counter != nil else { return generation }
            let (next, overflow) = generation.addingReportingOverflow(1)
            guard !overflow else {
                throw KeyValueError(
                    .overflow, "The counter \(key.debugDescription) has no generation left to reset into.")
            }
            return next
        }
    }

    var entries: [String: Entry] = [:]

    // MARK: JSON

    var json: JSONValue {
        var object: [String: JSONValue] = [:]
        for (key, entry) in entries {
            var fields: [String: JSONValue] = [
                "modified": .string(KeyValue.dateText(entry.modified)),
                "device": .string(entry.device),
            ]
            if let value = entry.value { fields["value"] = value.json }
            if let counter = entry.counter {
                fields["counter"] = .object(
                    counter.mapValues { .object(["added": .integer($0.added), "spent": .integer($0.spent)]) })
            }
            // Decimal text, not a JSON number: a format-1 reader compares generations as
            // strings, so it still tells two generations apart and keeps the field.
            if entry.generation != 0 { fields["generation"] = .string(String(entry.generation)) }
            object[key] = .object(fields)
        }
        return .object(["format": .integer(Self.currentFormat), "entries": .object(object)])
    }

    init() {}

    /// Reads a document of format 1 or 2.
    /// - Throws: ``KeyValueError``: `unsupportedFormat` for a later format,
    ///   `invalidDocument` for a document that is not of its format.
    init(json: JSONValue) throws {
        guard case .object(let root) = json else {
            throw KeyValueError(.invalidDocument, "The key-value record is not a JSON object.")
        }
        let format = try Self.format(of: root)
        guard case .object(let object)? = root["entries"] else {
            throw KeyValueError(.invalidDocument, "The key-value record has no \"entries\" object.")
        }
        for (key, value) in object {
            guard case .object(let fields) = value, case .string(let modifiedText)? = fields["modified"],
                let modified = try? KeyValue.dateStyle.parse(modifiedText),
                case .string(let device)? = fields["device"]
            else {
                throw KeyValueError(
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
                        throw KeyValueError(
                            .invalidDocument,
                            "The counter \(key.debugDescription) has a bad tally for \(owner.debugDescription).")
                    }
                    counter[owner] = Tally(added: added, spent: spent)
                }
                entry.counter = counter
            }
            entry.generation = try Self.generation(fields["generation"], of: entry, format: format, key: key)
            entries[key] = entry
        }
    }

    /// The document's format: 1 when it names none (documents before formats were numbered).
    private static func format(of root: [String: JSONValue]) throws -> Int64 {
        guard let field = root["format"] else { return 1 }
        guard case .integer(let format) = field, format >= 1 else {
            throw KeyValueError(.invalidDocument, "The key-value record's \"format\" is not a format number.")
        }
        guard format <= currentFormat else {
            throw KeyValueError(
                .unsupportedFormat,
                "The key-value record has format \(format); this version reads formats 1 to \(currentFormat). Update the app to read it."
            )
        }
        return format
    }

    /// An entry's generation: decimal text; missing is 0.
    ///
    /// Format 1 read a generation only on a counter, and only a string: there, anything else is
    /// ignored as it was, a random id (given to a counter made again after a removal) is
    /// generation 1, and decimal text is that number (a format-2 document an earlier version
    /// wrote back, which keeps a counter's generation and drops the rest).
    private static func generation(_ field: JSONValue?, of entry: Entry, format: Int64, key: String) throws -> Int64 {
        guard let field else { return 0 }
        let number: Int64?
        if case .string(let text) = field,
            !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        {
            number = Int64(text)
        } else {
            number = nil
        }
        guard format == 1 else {
            guard let number else {
                throw KeyValueError(.invalidDocument, "The entry \(key.debugDescription) has a bad \"generation\".")
            }
            return number
        }
        guard entry.counter != nil, case .string = field else { return 0 }
        return number ?? 1
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
    /// A value that replaces a counter ends the counter's generation.
    /// - Throws: ``KeyValueError``: `invalidDocument` for a value that does not survive
    ///   JSON, `overflow` when a counter has no generation left.
    mutating func set(_ value: KeyValue, forKey key: String, rule: MergeRule, device: String, at now: Date) throws {
        let canonical = try KeyValue(json: value.json)  // dates to the millisecond, as stored
        let stored =
            rule.isMonotone ? KeyValueMerge.join(rule, entries[key]?.value, canonical) ?? canonical : canonical
        let generation = try entries[key]?.generationAfterEndingCounter(key) ?? 0
        entries[key] = .init(value: stored, counter: nil, generation: generation, modified: now, device: device)
    }

    /// Removes a key (kept as an entry with nothing in it, so the removal syncs like a write).
    /// Removing a counter ends its generation: increments to it that arrive later are dropped.
    /// - Throws: ``KeyValueError`` (`overflow`) when a counter has no generation left.
    mutating func remove(_ key: String, device: String, at now: Date) throws {
        guard let entry = entries[key], !entry.isRemoved else { return }
        let generation = try entry.generationAfterEndingCounter(key)
        entries[key] = .init(value: nil, counter: nil, generation: generation, modified: now, device: device)
    }

    /// Adds `amount` to `device`'s tally of a counter (a negative amount spends). A counter
    /// made where the key was removed counts in the removed entry's generation.
    /// - Returns: The counter's new total.
    /// - Throws: ``KeyValueError``: `typeMismatch` when the key holds a value, `overflow`.
    mutating func increment(_ key: String, by amount: Int64, device: String, at now: Date) throws -> Int64 {
        var entry = entries[key] ?? .init(value: nil, counter: nil, modified: now, device: device)
        if entry.isRemoved { entry.counter = [:] }
        guard var counter = entry.counter else {
            throw KeyValueError(
                .typeMismatch,
                "The key \(key.debugDescription) holds a value, not a counter; remove it first to make it a counter."
            )
        }
        guard amount != .min else { throw KeyValueError(.overflow, "Cannot spend \(amount).") }
        let magnitude = abs(amount)
        var tally = counter[device] ?? .init(added: 0, spent: 0)
        let (added, addOverflow) = tally.added.addingReportingOverflow(amount > 0 ? magnitude : 0)
        let (spent, spendOverflow) = tally.spent.addingReportingOverflow(amount < 0 ? magnitude : 0)
        guard !addOverflow, !spendOverflow else {
            throw KeyValueError(.overflow, "The counter \(key.debugDescription) would pass 64 bits.")
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
