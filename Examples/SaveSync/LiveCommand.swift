import ArgumentParser
import Foundation
import StratusSync

/// `live`: one device with automatic sync, played from the keyboard, for a person to watch sync
/// happen between two terminals (one device each, on a shared remote).
struct LiveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live",
        abstract: "Run one device with automatic sync and play it from the keyboard; run another in a second terminal.",
        discussion: """
            Each terminal runs one device on the same remote, for example
              stratus-save-sync live --device /tmp/saves/A --type local --option root=/tmp/saves/cloud
              stratus-save-sync live --device /tmp/saves/B --type local --option root=/tmp/saves/cloud
            Commands: `play LEVEL STARS SCORE` (such as `play 1-2 3 9100`), `offline`, `online`, \
            `status`, `quit`. What the other device plays appears here by itself.
            """
    )

    @OptionGroup var options: DeviceOptions

    func run() async throws {
        // Another program reading a pipe (a script playing the device) sees each line at once.
        StandardOutput.makeLineBuffered()
        let (device, label) = try options.open()
        print(
            "Device \(device.name) on \(label), syncing automatically. Type `play 1-1 3 1200`, `offline`, `online`, `status` or `quit`."
        )
        print("save: \(try device.save().summary)")
        let changes = device.saves.changes()
        let statuses = device.saves.statusUpdates()
        let watching = Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await change in changes where change.key == device.slot && change.origin != .local {
                        print("\n[\(change.origin.rawValue)] save: \((try? device.save().summary) ?? "?")")
                        print("progress: \(device.progressSummary)")
                    }
                }
                group.addTask {
                    for await status in statuses where !status.isSyncing {
                        print("[sync] \(status)")
                    }
                }
            }
        }
        defer { watching.cancel() }
        var syncing: Task<Void, Never>? = device.startAutomaticSync()
        while let line = readLine() {
            let words = line.split(separator: " ").map(String.init)
            switch words.first {
            case "play":
                guard words.count == 4, let stars = Int(words[2]), (0...3).contains(stars), let score = Int(words[3])
                else {
                    print("usage: play LEVEL STARS SCORE, such as play 1-2 3 9100")
                    continue
                }
                print("save: \(try device.play(level: words[1], stars: stars, score: score).summary)")
            case "offline":
                syncing?.cancel()
                await syncing?.value
                syncing = nil
                print("offline: playing here stays here until `online`")
            case "online":
                if syncing == nil { syncing = device.startAutomaticSync() }
                print("online: syncing automatically")
            case "status":
                for line in try device.status() { print(line) }
                print("sync: \(device.saves.status)")
            case "quit":
                syncing?.cancel()
                await syncing?.value
                await device.saves.shutdown()
                return
            case nil:
                continue
            default:
                print("commands: play LEVEL STARS SCORE, offline, online, status, quit")
            }
        }
        syncing?.cancel()
        await syncing?.value
    }
}
