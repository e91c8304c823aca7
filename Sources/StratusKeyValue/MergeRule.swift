/// How a ``KeyValueStore`` settles a key that two devices changed since they last agreed.
///
/// Pick one per key or key prefix in ``KeyValueConfiguration/rules``.
///
/// **Monotone rules** (``highest``, ``lowest``, ``union``, and ``perEntry(_:)`` of those) are
/// joins: they apply to every merge and to every local write, so the value only moves one way
/// everywhere. A device that sets level 1 where 13 is stored keeps 13; a union never loses an
/// element. (To allow going back, use ``lastWriterWins`` or ``custom(_:)``.)
///
/// **Other rules** are three-way: a key that only one side changed since the last agreed version
/// takes that side's value, and the rule decides only when both changed.
///
/// Counters (``KeyValueStore/increment(_:by:)``) always merge by adding each device's own
/// tally, whatever the rule; a removal resets a counter, and the later generation of a counter
/// wins a merge whole.
public struct MergeRule: Sendable {
    indirect enum Kind: Sendable {
        case highest
        case lowest
        case perEntry(MergeRule)
        case union
        case lastWriterWins
        case custom(@Sendable (_ base: KeyValue?, _ local: KeyValue?, _ remote: KeyValue?) -> KeyValue?)
    }

    let kind: Kind

    /// Whether the rule only lets a value grow (highest, lowest, union, and per-entry of those):
    /// such a rule also applies when a device writes, so a value never goes back anywhere.
    var isMonotone: Bool {
        switch kind {
        case .highest, .lowest, .union: true
        case .perEntry(let inner): inner.isMonotone
        case .lastWriterWins, .custom: false
        }
    }

    /// The larger number wins (a highest level reached: 13 beats 1, wherever 1 was played).
    public static let highest = MergeRule(kind: .highest)
    /// The smaller number wins (a best time).
    public static let lowest = MergeRule(kind: .lowest)
    /// Dictionaries merge entry by entry, each entry by `rule` (level → best score: playing half
    /// the levels on each device ends with all of them on both). Nest it for dictionaries of
    /// dictionaries: `.perEntry(.perEntry(.highest))` keeps the best score and the most stars
    /// of each level.
    public static func perEntry(_ rule: MergeRule) -> MergeRule { MergeRule(kind: .perEntry(rule)) }
    /// Arrays merge as sets: every element either side has (unlocked items, purchases). Elements
    /// are never removed by a merge.
    public static let union = MergeRule(kind: .union)
    /// The later write wins (settings); the losing value stays in the version history and the
    /// store's archive.
    public static let lastWriterWins = MergeRule(kind: .lastWriterWins)
    /// The app decides, given the last agreed value and both sides (`nil` where the key is
    /// absent or removed); returning `nil` removes the key.
    public static func custom(
        _ merge: @escaping @Sendable (_ base: KeyValue?, _ local: KeyValue?, _ remote: KeyValue?) -> KeyValue?
    ) -> MergeRule {
        MergeRule(kind: .custom(merge))
    }
}

/// Which keys a rule covers.
public struct KeyRule: Sendable {
    /// A key, or the start of keys when ``isPrefix``.
    public var key: String
    /// Whether ``key`` is a prefix.
    public var isPrefix: Bool
    /// The rule.
    public var rule: MergeRule

    /// A rule for one key.
    public static func key(_ key: String, _ rule: MergeRule) -> KeyRule {
        KeyRule(key: key, isPrefix: false, rule: rule)
    }
    /// A rule for every key that starts with `prefix` (the longest matching prefix wins).
    public static func prefix(_ prefix: String, _ rule: MergeRule) -> KeyRule {
        KeyRule(key: prefix, isPrefix: true, rule: rule)
    }
}

/// The limits of a ``KeyValueStore``, like those of Apple's iCloud key-value store by default.
public struct KeyValueLimits: Sendable, Hashable {
    /// The most bytes all keys and values may take, as JSON: 1 MiB by default.
    public var maximumTotalBytes: Int
    /// The most keys: 1,024 by default.
    public var maximumKeys: Int
    /// The longest key in UTF-8 bytes: 64 by default.
    public var maximumKeyLength: Int

    /// Creates limits.
    public init(maximumTotalBytes: Int = 1_048_576, maximumKeys: Int = 1_024, maximumKeyLength: Int = 64) {
        self.maximumTotalBytes = maximumTotalBytes
        self.maximumKeys = maximumKeys
        self.maximumKeyLength = maximumKeyLength
    }
}
