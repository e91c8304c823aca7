import Foundation

/// A game's save: the best result per level, as Cut the Rope keeps it.
///
/// Two saves merge by keeping, for every level, the most stars and the highest score either
/// device reached, so progress made on any device is never lost.
struct GameSave: Codable, Equatable, Sendable {
    /// One level's best result.
    struct LevelResult: Codable, Equatable, Sendable {
        var stars: Int
        var score: Int
    }

    /// Results by level name, such as `1-1`.
    var levels: [String: LevelResult] = [:]

    /// Records a result, keeping the best of it and what the level already had.
    mutating func record(level: String, stars: Int, score: Int) {
        let played = LevelResult(stars: stars, score: score)
        levels[level] = levels[level].map { Self.best($0, played) } ?? played
    }

    /// This save and another, level by level, keeping the best of each.
    func merged(with other: GameSave) -> GameSave {
        var result = self
        for (level, theirs) in other.levels {
            result.levels[level] = result.levels[level].map { Self.best($0, theirs) } ?? theirs
        }
        return result
    }

    private static func best(_ one: LevelResult, _ other: LevelResult) -> LevelResult {
        LevelResult(stars: max(one.stars, other.stars), score: max(one.score, other.score))
    }

    /// The stars over all levels.
    var totalStars: Int { levels.values.reduce(0) { $0 + $1.stars } }

    /// One line: `1-1 ★★★ 1200 · 1-2 ★★☆ 7000`.
    var summary: String {
        guard !levels.isEmpty else { return "(no levels played)" }
        return levels.keys.sorted().map { level in
            "\(level) \(Self.stars(levels[level]?.stars ?? 0)) \(levels[level]?.score ?? 0)"
        }.joined(separator: " · ")
    }

    /// `★★☆` for 2 of 3 stars.
    static func stars(_ count: Int) -> String {
        let shown = max(0, min(3, count))
        return String(repeating: "★", count: shown) + String(repeating: "☆", count: 3 - shown)
    }
}

/// A failure of the example, with a message that says what to do.
struct SaveSyncFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
