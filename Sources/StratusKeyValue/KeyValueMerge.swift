internal import Foundation
internal import StratusSync

/// The three-way merge of two key-value documents, key by key: a key only one side changed takes
/// that side; a key both changed goes to its rule. Counters are a join, not three-way: the later
/// generation wins whole, and within one generation each device's tally is the larger copy.
struct KeyValueMerge: Sendable {
    /// A counter's tallies by device.
    typealias Counter = [String: KeyValueDocument.Tally]

    let rules: [KeyRule]
    let device: String

    func rule(for key: String) -> MergeRule {
        if let exact = rules.last(where: { !$0.isPrefix && $0.key == key }) { return exact.rule }
        let prefixes = rules.filter { $0.isPrefix && key.hasPrefix($0.key) }
        return prefixes.max { $0.key.count < $1.key.count }?.rule ?? .lastWriterWins
    }

    func merge(base: KeyValueDocument?, local: KeyValueDocument, remote: KeyValueDocument) -> KeyValueDocument {
        var result = KeyValueDocument()
        for key in Set(local.entries.keys).union(remote.entries.keys) {
            let mine = local.entries[key]
            let theirs = remote.entries[key]
            let original = base?.entries[key]
            if let merged = mergeEntry(key, base: original, local: mine, remote: theirs) {
                result.entries[key] = merged
            }
        }
        return result
    }

    private func mergeEntry(
        _ key: String, base: KeyValueDocument.Entry?, local: KeyValueDocument.Entry?, remote: KeyValueDocument.Entry?
    ) -> KeyValueDocument.Entry? {
        guard let local else { return remote }
        guard let remote else { return local }
        if local.generation != remote.generation {
            // The later generation began where a counter of the earlier one was removed or
            // replaced: it stands whole, and what the earlier generation did since is dropped.
            return local.generation > remote.generation ? local : remote
        }
        let newer = isNewer(local, than: remote) ? local : remote
        if local.sameContent(as: remote) { return newer }
        if let counter = Self.joinCounters(local, remote) {
            return .init(
                value: nil, counter: counter, generation: local.generation, modified: newer.modified,
                device: newer.device)
        }
        if local.sameContent(as: base) { return remote }
        if remote.sameContent(as: base) { return local }
        let rule = rule(for: key)
        if rule.isMonotone, let joined = Self.join(rule, local.current, remote.current) {
            // Both changed: a monotone rule joins them (local writes are joins too, so a side
            // can only have grown, or removed the key).
            return .init(
                value: joined, counter: nil, generation: local.generation,
                modified: max(local.modified, remote.modified),
                device: device)
        }
        return apply(rule, base: base?.current, local: local, remote: remote)
    }

    /// The join of two entries of one generation that are each a counter or removed (at least
    /// one a counter), or `nil` for other entries.
    ///
    /// A per-device tally only ever grows on its own device, so the larger of each side is the
    /// latest; a removed entry of the same generation is a counter not yet counted in (the
    /// removal that began the generation). So the merge is exact in any order of syncs, and
    /// with the generation rule it is a join: commutative, associative and idempotent.
    static func joinCounters(_ one: KeyValueDocument.Entry, _ other: KeyValueDocument.Entry) -> Counter? {
        guard one.value == nil, other.value == nil, one.counter != nil || other.counter != nil else { return nil }
        return (one.counter ?? [:]).merging(other.counter ?? [:]) { mine, theirs in
            .init(added: max(mine.added, theirs.added), spent: max(mine.spent, theirs.spent))
        }
    }

    /// The join of two values under a monotone rule (the larger, the union, entry by entry), or
    /// `nil` when either is missing or the types do not fit the rule.
    static func join(_ rule: MergeRule, _ one: KeyValue?, _ other: KeyValue?) -> KeyValue? {
        guard let one, let other else { return one ?? other }
        switch rule.kind {
        case .highest:
            guard let left = one.number, let right = other.number else { return nil }
            return left >= right ? one : other
        case .lowest:
            guard let left = one.number, let right = other.number else { return nil }
            return left <= right ? one : other
        case .union:
            guard case .array(let mine) = one, case .array(let theirs) = other else { return nil }
            var result = mine
            for element in theirs where !result.contains(element) { result.append(element) }
            return .array(result)
        case .perEntry(let inner):
            guard inner.isMonotone, case .dictionary(let mine) = one, case .dictionary(let theirs) = other else {
                return nil
            }
            var result = mine
            for (entry, value) in theirs {
                guard let joined = join(inner, result[entry], value) else { return nil }
                result[entry] = joined
            }
            return .dictionary(result)
        case .lastWriterWins, .custom:
            return nil
        }
    }

    private func apply(
        _ rule: MergeRule, base: KeyValue?, local: KeyValueDocument.Entry, remote: KeyValueDocument.Entry
    ) -> KeyValueDocument.Entry {
        let newer = isNewer(local, than: remote) ? local : remote
        let modified = max(local.modified, remote.modified)
        switch rule.kind {
        case .lastWriterWins:
            return newer
        default:
            let value = mergeValues(
                rule, base: base, local: local.current, remote: remote.current,
                localIsNewer: isNewer(local, than: remote))
            return .init(value: value, counter: nil, generation: local.generation, modified: modified, device: device)
        }
    }

    /// Merges two values by a rule; the side written later (the key's entry as a whole: entries
    /// inside a dictionary have no times of their own) settles what the rule cannot.
    private func mergeValues(
        _ rule: MergeRule, base: KeyValue?, local: KeyValue?, remote: KeyValue?, localIsNewer: Bool
    ) -> KeyValue? {
        let newer = localIsNewer ? (local ?? remote) : (remote ?? local)
        switch rule.kind {
        case .lastWriterWins:
            return newer
        case .highest, .lowest:
            guard let localNumber = local?.number else { return remote ?? local }
            guard let remoteNumber = remote?.number else { return local }
            if case .highest = rule.kind { return localNumber >= remoteNumber ? local : remote }
            return localNumber <= remoteNumber ? local : remote
        case .union:
            guard case .array(let mine)? = local, case .array(let theirs)? = remote else { return newer }
            var result = mine
            for element in theirs where !result.contains(element) { result.append(element) }
            return .array(result)
        case .perEntry(let inner):
            guard case .dictionary(let mine)? = local, case .dictionary(let theirs)? = remote else { return newer }
            var baseEntries: [String: KeyValue] = [:]
            if case .dictionary(let entries)? = base { baseEntries = entries }
            var result: [String: KeyValue] = [:]
            for entry in Set(mine.keys).union(theirs.keys) {
                let left = mine[entry]
                let right = theirs[entry]
                let original = baseEntries[entry]
                let merged: KeyValue?
                if left == right {
                    merged = left
                } else if left == original {
                    merged = right
                } else if right == original {
                    merged = left
                } else {
                    merged = mergeValues(inner, base: original, local: left, remote: right, localIsNewer: localIsNewer)
                }
                if let merged { result[entry] = merged }
            }
            return .dictionary(result)
        case .custom(let merge):
            return merge(base, local, remote)
        }
    }

    /// The later write, by the writers' clocks; a tie goes to the larger device name, so every
    /// device decides the same.
    private func isNewer(_ one: KeyValueDocument.Entry, than other: KeyValueDocument.Entry) -> Bool {
        one.modified != other.modified ? one.modified > other.modified : one.device > other.device
    }
}
