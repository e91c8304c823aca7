import Foundation
import Stratus
import StratusSync

/// The scripted story: two devices with automatic sync, one offline, a conflict detected instead
/// of an overwrite and merged by the save's rule (the best result of each level), the progress
/// merged key by key, and every version still in the history. Nothing calls `sync()`: each
/// device syncs by itself, and the story waits for what it shows to happen.
struct Demo {
    let remoteLabel: String
    let deviceA: Device
    let deviceB: Device

    /// Runs the story; throws when anything does not go as a safe sync must.
    func run() async throws {
        print("Stratus save-sync demo: two devices share one game save and its progress through \(remoteLabel).")
        print("Both sync automatically: nothing in this story calls sync().")
        var syncingA = deviceA.startAutomaticSync()
        let syncingB = deviceB.startAutomaticSync()
        defer {
            syncingA.cancel()
            syncingB.cancel()
        }

        step(1, "A plays; B's screen updates by itself")
        let clock = ContinuousClock()
        var started = clock.now
        try deviceA.play(level: "1-1", stars: 3, score: 1200)
        say("A plays level 1-1: \(try deviceA.save().summary)")
        try await waitUntil("B shows A's level 1-1") {
            try deviceB.save() == deviceA.save() && deviceB.progressSummary == deviceA.progressSummary
        }
        say("B's screen, \(milliseconds(clock.now - started)) ms later: \(try deviceB.save().summary)")

        step(2, "A plays offline")
        syncingA.cancel()
        await syncingA.value
        try deviceA.play([("1-2", 3, 9100), ("1-3", 1, 3000)])
        say("A (offline) plays 1-2 and 1-3: \(try deviceA.save().summary); \(deviceA.progressSummary)")

        step(3, "B plays online; its save goes up by itself")
        try deviceB.play([("1-2", 2, 7000), ("1-3", 3, 8800), ("1-4", 2, 5000)])
        say("B plays 1-2, 1-3 and 1-4: \(try deviceB.save().summary); \(deviceB.progressSummary)")
        try await waitUntil("B pushed its save") {
            try deviceB.saves.pendingChangeCount() == 0 && deviceB.progress.syncStore.pendingChangeCount() == 0
        }
        say("B's save is on the remote (status: \(deviceB.saves.status))")
        let aOffline = try deviceA.save()
        let bSave = try deviceB.save()

        step(4, "A comes online: Stratus detects the conflict instead of overwriting")
        let changes = deviceA.saves.changes()
        started = clock.now
        syncingA = deviceA.startAutomaticSync()
        guard try await first(of: changes, where: { $0.key == deviceA.slot && $0.origin == .merge }) != nil else {
            throw SaveSyncFailure("A's offline save was not met as a conflict.")
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

        step(5, "B's screen gets the merge by itself")
        try await waitUntil("B shows the merge") {
            try deviceB.save() == merged && deviceA.progressSummary == deviceB.progressSummary
                && deviceA.saves.pendingChangeCount() == 0
        }
        say(
            "\(milliseconds(clock.now - started)) ms after A came online, A and B hold the same save: \(merged.summary)"
        )
        say(
            "progress, merged key by key: \(deviceA.progressSummary) (the highest level wins; each device's coins add up)"
        )

        step(6, "Nothing was lost: every version of the save is in the history")
        let history = try await deviceB.saves.versions(of: deviceB.slot)
        for version in history {
            let save = try version.record.decode(GameSave.self)
            say("version \(version.id) by \(version.record.device): \(save.summary)")
        }
        guard let bVersion = history.first(where: { (try? $0.record.decode(GameSave.self)) == bSave }) else {
            throw SaveSyncFailure("B's pre-merge save is not in the history.")
        }
        say(
            "B's pre-merge save comes back, thumbnail and all, with store.restore(slot, to: VersionID(\"\(bVersion.id)\"))"
        )

        print(
            """

            Summary
              conflict detected: yes — A's offline save met B's newer one; neither overwrote the other
              merged result: \(merged.summary) — \(merged.totalStars) stars; \(deviceA.progressSummary)
              B's pre-merge save: still restorable as version \(bVersion.id)
            """)
    }

    /// Waits until `condition` holds (checking every 20 ms), for at most two minutes.
    private func waitUntil(_ what: String, _ condition: () throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while try !condition() {
            guard ContinuousClock.now < deadline else { throw SaveSyncFailure("Timed out: \(what).") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The first change that matches, or `nil` after two minutes.
    private func first(of changes: AsyncStream<RecordChange>, where matches: @escaping @Sendable (RecordChange) -> Bool)
        async throws -> RecordChange?
    {
        await withTaskGroup(of: RecordChange?.self) { group in
            group.addTask {
                for await change in changes where matches(change) { return change }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(120))
                return nil
            }
            defer { group.cancelAll() }
            return await group.next() ?? nil
        }
    }

    private func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
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
