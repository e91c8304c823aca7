import ArgumentParser
import Foundation
import Stratus

/// `stratus-save-sync`: the save-sync story of Stratus, scripted (`demo`) or by hand.
struct SaveSyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stratus-save-sync",
        abstract: "Sync a game's save between devices through any Stratus remote, without ever losing progress.",
        discussion: """
            `demo` plays the whole story on two devices. By hand: `play` records a level on a \
            device, `sync` syncs it, `status` shows where it stands. Each device is a folder \
            (--device DIR). The remote is a local folder unless --remote NAME (from the \
            Stratus configuration) or --type TYPE --option key=value chooses another, so \
            `--type dropbox --option ...` is all it takes to use Dropbox instead.
            """,
        subcommands: [DemoCommand.self, SyncCommand.self, StatusCommand.self, PlayCommand.self],
        defaultSubcommand: DemoCommand.self
    )
}

/// The state folder of the by-hand commands: `$XDG_STATE_HOME/stratus-save-sync`, else
/// `~/.local/state/stratus-save-sync`.
func defaultStateFolder() -> URL {
    let environment = ProcessInfo.processInfo.environment
    let base = environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? URL(filePath: $0) : nil }
        ?? FileManager.default.homeDirectoryForCurrentUser.appending(path: ".local/state")
    return base.appending(path: "stratus-save-sync")
}

/// The device and file options the by-hand commands share.
struct DeviceOptions: ParsableArguments {
    @Option(name: .long, help: "The device's folder (its save and sync state live there).")
    var device: String

    @Option(name: .long, help: "The save's path on the remote.")
    var path: String = "game/progress.json"

    var deviceValue: Device {
        let folder = URL(filePath: NSString(string: device).expandingTildeInPath)
        return Device(name: folder.lastPathComponent, folder: folder)
    }

    func remotePath() throws -> RemotePath { try RemotePath(path) }
}

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Play the story: A offline, B online, the conflict detected, the merge, the history."
    )

    @OptionGroup var remote: RemoteChoice
    @Option(name: .long, help: "Keep the devices (and the default local remote) in this folder instead of a temporary one.")
    var work: String?
    @Option(name: .long, help: "The save's path on the remote (default: a fresh folder per run on a chosen remote).")
    var path: String?

    func run() async throws {
        let keep = work.map { URL(filePath: NSString(string: $0).expandingTildeInPath) }
        let folder = keep ?? FileManager.default.temporaryDirectory.appending(path: "stratus-save-sync-\(UUID().uuidString)")
        defer { if keep == nil { try? FileManager.default.removeItem(at: folder) } }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let (service, label) = try remote.makeService(defaultRoot: folder.appending(path: "cloud"))
        let run = UUID().uuidString.prefix(8).lowercased()
        let remotePath = try RemotePath(path ?? (remote.isDefault ? "game/progress.json" : "stratus-save-sync-demo/\(run)/progress.json"))
        let demo = Demo(
            service: service, remoteLabel: label, path: remotePath,
            deviceA: Device(name: "A", folder: folder.appending(path: "device-A-\(run)")),
            deviceB: Device(name: "B", folder: folder.appending(path: "device-B-\(run)")),
            workFolder: folder
        )
        try await demo.run()
        if !remote.isDefault {
            print("\nThe demo's save stays on the remote at \(remotePath) (with its versions); delete it when you like.")
        }
        print(keep == nil
            ? "\nThe demo ran in a temporary folder, now removed; pass --work DIR to keep the devices and the remote."
            : "\nThe devices are in \(folder.path); try `stratus-save-sync status --device \(demo.deviceA.folder.path)\(remote.isDefault ? " --type local --option root=\(folder.appending(path: "cloud").path)" : "")`.")
    }
}

struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "sync", abstract: "Sync one device's save with the remote.")

    @OptionGroup var deviceOptions: DeviceOptions
    @OptionGroup var remote: RemoteChoice

    func run() async throws {
        let (service, label) = try remote.makeService(defaultRoot: defaultStateFolder().appending(path: "cloud"))
        let device = deviceOptions.deviceValue
        print("Syncing device \(device.name) through \(label), file \(deviceOptions.path)")
        let outcome = try await device.sync(with: service, at: try deviceOptions.remotePath()) { print("  \($0)") }
        if case .merged(_, _, let result) = outcome {
            print("merged save: \(result.summary)")
        } else {
            print("save: \(try device.loadSave().summary)")
        }
    }
}

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Show a device's save and whether it is in sync.")

    @OptionGroup var deviceOptions: DeviceOptions
    @OptionGroup var remote: RemoteChoice

    func run() async throws {
        let (service, label) = try remote.makeService(defaultRoot: defaultStateFolder().appending(path: "cloud"))
        print("remote: \(label), file \(deviceOptions.path)")
        for line in try await deviceOptions.deviceValue.status(with: service, at: try deviceOptions.remotePath()) {
            print(line)
        }
    }
}

struct PlayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "play", abstract: "Record a level's result on a device (the best result stays).")

    @Option(name: .long, help: "The device's folder.") var device: String
    @Option(name: .long, help: "The level, such as 1-2.") var level: String
    @Option(name: .long, help: "Stars, 0 to 3.") var stars: Int
    @Option(name: .long, help: "The score.") var score: Int

    func validate() throws {
        guard (0...3).contains(stars) else { throw ValidationError("--stars must be 0, 1, 2 or 3.") }
        guard score >= 0 else { throw ValidationError("--score cannot be negative.") }
    }

    func run() async throws {
        let folder = URL(filePath: NSString(string: device).expandingTildeInPath)
        let save = try Device(name: folder.lastPathComponent, folder: folder).play(level: level, stars: stars, score: score)
        print("save: \(save.summary)")
    }
}
