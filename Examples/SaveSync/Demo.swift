import Foundation
import Stratus

/// The scripted story: two devices, one offline, a conflict detected instead of an overwrite, a
/// merge where the best result of each level wins, and the other device's save still in the
/// version history.
struct Demo {
    let service: any Service
    let remoteLabel: String
    let path: RemotePath
    let deviceA: Device
    let deviceB: Device
    let workFolder: URL

    /// Runs the story; throws when anything does not go as a safe sync must.
    func run() async throws {
        print("Stratus save-sync demo: two devices share one game save through \(remoteLabel), file \(path).")

        step(1, "Both devices start in sync")
        try deviceA.play(level: "1-1", stars: 3, score: 1200)
        say("A plays level 1-1: \(try deviceA.loadSave().summary)")
        let first = try await sync(deviceA)
        _ = try await sync(deviceB)
        say("B's save: \(try deviceB.loadSave().summary)")
        guard case .uploaded(let v1) = first else { throw SaveSyncFailure("A's first upload did not happen: \(first)") }

        step(2, "A plays offline: its upload is held back")
        try deviceA.play(level: "1-2", stars: 3, score: 9100)
        try deviceA.play(level: "1-3", stars: 1, score: 3000)
        say("A (offline) plays 1-2 and 1-3: \(try deviceA.loadSave().summary)")
        say("A has no connection, so it does not sync; it still believes the remote is at version \(v1)")

        step(3, "B plays online and uploads")
        try deviceB.play(level: "1-2", stars: 2, score: 7000)
        try deviceB.play(level: "1-3", stars: 3, score: 8800)
        try deviceB.play(level: "1-4", stars: 2, score: 5000)
        say("B plays 1-2, 1-3 and 1-4: \(try deviceB.loadSave().summary)")
        let bUpload = try await sync(deviceB)
        guard case .uploaded(let v2) = bUpload else { throw SaveSyncFailure("B's upload did not happen: \(bUpload)") }
        let aOffline = try deviceA.loadSave()
        let bSave = try deviceB.loadSave()

        step(4, "A comes online: Stratus detects the conflict instead of overwriting")
        let aSync = try await sync(deviceA)
        guard case .merged(let theirs, let v3, let merged) = aSync else {
            throw SaveSyncFailure("A's stale upload was not refused as a conflict: \(aSync)")
        }
        say("")
        say("level   A (offline)   B (online)   merged")
        for level in merged.levels.keys.sorted() {
            say("\(level.padding(toLength: 8, withPad: " ", startingAt: 0))\(cell(aOffline, level))\(cell(bSave, level))\(GameSave.stars(merged.levels[level]?.stars ?? 0)) \(merged.levels[level]?.score ?? 0)")
        }

        step(5, "B syncs and gets the merge")
        let bSync = try await sync(deviceB)
        guard case .downloaded(let got) = bSync, got == v3 else { throw SaveSyncFailure("B did not download the merge: \(bSync)") }
        let same = try deviceA.loadSave() == deviceB.loadSave()
        say(same ? "A and B hold the same save again: \(merged.summary)" : "A and B differ!")
        guard same else { throw SaveSyncFailure("After the merge, A and B hold different saves.") }

        step(6, "Nothing was lost: B's upload stays in the version history")
        let versions = try await service.versions(of: path)
        for (index, version) in versions.enumerated() {
            let role = switch version.id {
            case v3: "the merge (current)"
            case v2: "B's upload, before the merge"
            case v1: "A's first upload"
            default: index == 0 ? "current" : "older"
            }
            say("version \(version.id)  \(version.size) bytes  \(role)")
        }
        let oldCopy = workFolder.appending(path: "version-\(v2.rawValue).json")
        _ = try await service.download(path, version: v2, to: oldCopy)
        let restorable = try GameSave.decode(try Data(contentsOf: oldCopy), from: "version \(v2)")
        say("downloaded version \(v2) (hash-checked): \(restorable.summary)")
        say("it can be made current again with service.restore(\(path), to: \(v2)), or `stratus restore NAME:\(path) \(v2)`")
        guard restorable == bSave else { throw SaveSyncFailure("Version \(v2) does not hold B's save.") }

        print("""

            Summary
              conflict detected: yes — A's upload based on version \(v1) was refused; the remote was at version \(theirs)
              merged result (version \(v3)): \(merged.summary) — \(merged.totalStars) stars
              B's pre-merge save: still restorable as version \(v2)
            """)
    }

    private func sync(_ device: Device) async throws -> Device.Outcome {
        say("— \(device.name) syncs")
        return try await device.sync(with: service, at: path) { say("  \($0)") }
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
