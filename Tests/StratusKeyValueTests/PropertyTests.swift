import Foundation
import StratusKeyValue
import StratusSync
import SyncSimulation
import Testing

/// Random interleavings of writes and syncs on three devices converge to the one correct value.
@Suite struct PropertyTests {
    @Test(arguments: 1...12)
    func countersConvergeToTheSumOfEveryDevicesChanges(_ seed: UInt64) async throws {
        try await KeyValueHarness.with(.local, rules: []) { harness in
            var random = SeededGenerator(seed: seed)
            let devices = try (0..<3).map { try harness.device("d\($0)") }
            var expected: Int64 = 0
            for _ in 0..<40 {
                let device = devices[Int.random(in: 0..<3, using: &random)]
                if random.chance(0.6) {
                    let amount = Int64.random(in: -5...9, using: &random)
                    try device.increment("coins", by: amount)
                    expected += amount
                } else {
                    try await device.synchronize()
                }
            }
            for _ in 0..<2 { for device in devices { try await device.synchronize() } }
            for device in devices { #expect(device.integer(forKey: "coins") == expected, "seed \(seed)") }
        }
    }

    @Test(arguments: 1...12)
    func perEntryBestConvergesToTheBestOfEveryWrite(_ seed: UInt64) async throws {
        try await KeyValueHarness.with(.local, rules: [.key("levels", .perEntry(.perEntry(.highest)))]) { harness in
            var random = SeededGenerator(seed: seed)
            let devices = try (0..<3).map { try harness.device("d\($0)") }
            var best: [String: [String: Int64]] = [:]
            for _ in 0..<40 {
                let device = devices[Int.random(in: 0..<3, using: &random)]
                if random.chance(0.6) {
                    let level = "1-\(Int.random(in: 1...6, using: &random))"
                    let score = Int64.random(in: 0...1000, using: &random)
                    let stars = Int64.random(in: 0...3, using: &random)
                    var levels = device.dictionary(forKey: "levels") ?? [:]
                    levels[level] = ["score": .integer(score), "stars": .integer(stars)]
                    try device.set(.dictionary(levels), forKey: "levels")
                    best[level, default: [:]]["score"] = max(best[level]?["score"] ?? 0, score)
                    best[level, default: [:]]["stars"] = max(best[level]?["stars"] ?? 0, stars)
                } else {
                    try await device.synchronize()
                }
            }
            for _ in 0..<2 { for device in devices { try await device.synchronize() } }
            let expected = KeyValue.dictionary(best.mapValues { .dictionary($0.mapValues(KeyValue.integer)) })
            for device in devices { #expect(device.value(forKey: "levels") == expected, "seed \(seed)") }
        }
    }
}
