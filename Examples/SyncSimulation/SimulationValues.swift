import Foundation
import StratusSync

/// The values the adversarial run's records hold, and their conflict policies.
enum SimulationValues {
    /// The value of a `save`, `score` or `profile` record: a unique write id and a level.
    struct Write: Codable, Sendable {
        var write: String
        var level: Int
    }

    /// The value of a `tally` record: every write id it has taken in, sorted.
    struct Tally: Codable, Sendable {
        var writes: [String]
    }

    /// The policies: `score` keeps the higher level, `profile` the newest edit, `tally` the
    /// union of both sides' write ids; `save` is left to the user.
    static let policies: [String: ConflictPolicy] = [
        "score": .merge(Write.self) { _, local, remote in local.level >= remote.level ? local : remote },
        "profile": .newest,
        "tally": .merge(Tally.self) { _, local, remote in
            Tally(writes: Array(Set(local.writes + remote.writes)).sorted())
        },
    ]

    /// The write id a `save`, `score` or `profile` record holds, or `nil` for another value.
    static func write(of record: SyncRecord) -> String? {
        try? record.decode(Write.self).write
    }

    /// The write ids a `tally` record holds.
    static func tally(of record: SyncRecord) -> Set<String> {
        Set((try? record.decode(Tally.self).writes) ?? [])
    }
}
