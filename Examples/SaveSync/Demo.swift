import Foundation
import Stratus
import StratusSync

/// The scripted story: two devices, one offline, a conflict detected instead of an overwrite and
/// merged by the save's rule (the best result of each level), the progress merged key by key,
/// and every version still in the history.
struct Demo {
    let remoteLabel: String
    let deviceA: Device
    let deviceB: Device

    /// Runs the story; throws when anything does not go as a safe sync must.
    func run() async throws {
        print("Stratus save-sync demo: two devices share one game save and its progress through \(remoteLabel).")

        step(1, "Both devices start in sync")
        try deviceA.play(level: "1-1", stars: 3, score: 1200)
        say("A plays level 1-1: \(try deviceA.save().summary)")
        try await sync(deviceA)
        try await sync(deviceB)
        say("B's save: \(try deviceB.save().summary)")

        step(2, "A plays offline")
        try deviceA.play(level: "1-2", stars: 3, score: 9100)
        try deviceA.play(level: "1-3", stars: 1, score: 3000)
        say("A (offline) plays 1-2 and 1-3: \(try deviceA.save().summary); \(deviceA.progressSummary)")

        step(3, "B plays online and syncs")
        try deviceB.play(level: "1-2", stars: 2, score: 7000)
        try deviceB.play(level: "1-3", stars: 3, score: 8800)
        try deviceB.play(level: "1-4", stars: 2, score: 5000)
        say("B plays 1-2, 1-3 and 1-4: \(try deviceB.save().summary); \(deviceB.progressSummary)")
        try await sync(deviceB)
        let aOffline = try deviceA.save()
        let bSave = try deviceB.save()

        step(4, "A comes online: Stratus detects the conflict instead of overwriting")
        let report = try await sync(deviceA)
        guard report.resolved.contains(deviceA.slot) else {
            throw SaveSyncFailure("A's offline save was not met as a conflict: \(report)")
        }
        let merged = try deviceA.save()
        say("both devices changed the save since they last agreed: merged by its rule, the best result of each level")
        say("")
        say("level   A (offline)   B (online)   merged")
        for level in merged.levels.keys.sorted() {
            say(
                "\(level.padding(toLength: 8, withPad: " ", startingAt: 0))\(cell(aOffline, level))\(cell(bSave, level))\(GameSave.stars(merged.levels[level]?.stars ?? 0)) \(merged.levels[level]?.score ?? 0)"
            )
        }
        say("")
        say(
            "progress, merged key by key: \(deviceA.progressSummary) (the highest level wins; each device's coins add up)"
        )

        step(5, "B syncs and gets the merge")
        try await sync(deviceB)
        let same = try deviceA.save() == deviceB.save() && deviceA.progressSummary == deviceB.progressSummary
        say(same ? "A and B hold the same save and progress again: \(merged.summary)" : "A and B differ!")
        guard same else { throw SaveSyncFailure("After the merge, A and B hold different saves.") }

        step(6, "Nothing was lost: every version of the save is in the history")
        let history = try await deviceB.saves.versions(of: deviceB.slot)
        for version in history {
            let save = try version.record.decode(GameSave.self)
            say("version \(version.id) by \(version.record.device): \(save.summary)")
        }
        guard let bVersion = history.first(where: { (try? $0.record.decode(GameSave.self)) == bSave }) else {
            throw SaveSyncFailure("B's pre-merge save is not in the history.")
        }
        say("B's pre-merge save comes back, thumbnail and all, with store.restore(slot, to: \"\(bVersion.id)\")")

        print(
            """

            Summary
              conflict detected: yes — A's offline save met B's newer one; neither overwrote the other
              merged result: \(merged.summary) — \(merged.totalStars) stars; \(deviceA.progressSummary)
              B's pre-merge save: still restorable as version \(bVersion.id)
            """)
    }

    @discardableResult
    private func sync(_ device: Device) async throws -> SyncReport {
        let report = try await device.sync()
        say(
            "— \(device.name) syncs: \(report.pushed.count) pushed, \(report.pulled.count) pulled, \(report.resolved.count) conflicts merged"
        )
        return report
    }

    private func cell(_ save: GameSave, _ level: String) -> String {
        let text = save.levels[level].map { "\(GameSave.stars($0.stars)) \($0.score)" } ?? "—"
        return text.padding(toLength: 14, withPad: " ", startingAt: 0)
    }

    private func step(_ number: Int, _ title: String) {
        print("\n\(number). \(title)")
    }

    private func say(_ line: String) {
        print(line.isEmpty ? "" : "   \(line)")
    }
}
