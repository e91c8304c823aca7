import ArgumentParser
import Foundation
import Stratus

#if !Development
    #error("The tools and examples build with the package's Development trait: swift run --traits Development")
#endif

/// `stratus-save-sync`: the save-sync story of Stratus, scripted (`demo`) or by hand.
struct SaveSyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stratus-save-sync",
        abstract:
            "Sync a game's save and progress between devices through any Stratus remote, without ever losing progress.",
        discussion: """
            `demo` plays the whole story on two devices that sync automatically. `live` runs one \
            device with automatic sync, played from the keyboard: run two, in two terminals, to \
            watch it happen. By hand: `play` records a level on a device, `sync` syncs it, \
            `status` shows where it stands. Each device is a folder \
            (--device DIR). The remote is a local folder unless --remote NAME (from the \
            Stratus configuration) or --type TYPE --option key=value chooses another, so \
            `--type dropbox --option ...` is all it takes to use Dropbox instead.
            """,
        subcommands: [DemoCommand.self, LiveCommand.self, SyncCommand.self, StatusCommand.self, PlayCommand.self],
        defaultSubcommand: DemoCommand.self
    )
}

/// The state folder of the by-hand commands: `$XDG_STATE_HOME/stratus-save-sync`, else
/// `~/.local/state/stratus-save-sync`.
func defaultStateFolder() -> URL {
    let environment = ProcessInfo.processInfo.environment
    let base =
        environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? URL(filePath: $0) : nil }
        ?? FileManager.default.homeDirectoryForCurrentUser.appending(path: ".local/state")
    return base.appending(path: "stratus-save-sync")
}

/// The device and remote the by-hand commands share.
struct DeviceOptions: ParsableArguments {
    @Option(name: .long, help: "The device's folder (its save, progress and sync state live there).")
    var device: String

    @OptionGroup var remote: RemoteChoice

    /// Opens the device on the chosen remote (nothing is sent until a sync).
    func open() throws -> (device: Device, label: String) {
        let folder = URL(filePath: NSString(string: device).expandingTildeInPath)
        let (service, label) = try remote.makeService(defaultRoot: defaultStateFolder().appending(path: "cloud"))
        return (try Device(name: folder.lastPathComponent, folder: folder, service: service), label)
    }
}

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Play the story: A offline, B online, the conflict detected, the merge, the history."
    )

    @OptionGroup var remote: RemoteChoice
    @Option(
        name: .long, help: "Keep the devices (and the default local remote) in this folder instead of a temporary one.")
    var work: String?

    func run() async throws {
        let keep = work.map { URL(filePath: NSString(string: $0).expandingTildeInPath) }
        let folder =
            keep ?? FileManager.default.temporaryDirectory.appending(path: "stratus-save-sync-\(UUID().uuidString)")
        defer { if keep == nil { try? FileManager.default.removeItem(at: folder) } }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let (service, label) = try remote.makeService(defaultRoot: folder.appending(path: "cloud"))
        // A fresh remote folder per run, so runs against a real account never meet each other.
        let run = UUID().uuidString.prefix(8).lowercased()
        let remoteFolder = "stratus-save-sync-demo/\(run)"
        let demo = Demo(
            remoteLabel: label,
            deviceA: try Device(
                name: "A", folder: folder.appending(path: "device-A-\(run)"), service: service,
                remoteFolder: remoteFolder),
            deviceB: try Device(
                name: "B", folder: folder.appending(path: "device-B-\(run)"), service: service,
                remoteFolder: remoteFolder)
        )
        try await demo.run()
        if !remote.isDefault {
            print(
                "\nThe demo's data stays on the remote in \(remoteFolder) (with its versions); delete it when you like."
            )
        }
        print(
            keep == nil
                ? "\nThe demo ran in a temporary folder, now removed; pass --work DIR to keep the devices and the remote."
                : "\nThe devices and the remote are in \(folder.path).")
    }
}

struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync", abstract: "Sync one device's save and progress with the remote.")

    @OptionGroup var options: DeviceOptions

    func run() async throws {
        let (device, label) = try options.open()
        print("Syncing device \(device.name) through \(label)")
        let report = try await device.sync()
        print("pushed \(report.pushed.count), pulled \(report.pulled.count), conflicts merged \(report.resolved.count)")
        print("save: \(try device.save().summary)")
        print("progress: \(device.progressSummary)")
    }
}

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show a device's save and whether it has progress to push.")

    @OptionGroup var options: DeviceOptions

    func run() async throws {
        for line in try options.open().device.status() { print(line) }
    }
}

struct PlayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play", abstract: "Record a level's result on a device (the best result stays).")

    @OptionGroup var options: DeviceOptions
    @Option(name: .long, help: "The level, such as 1-2.") var level: String
    @Option(name: .long, help: "Stars, 0 to 3.") var stars: Int
    @Option(name: .long, help: "The score.") var score: Int

    func validate() throws {
        guard (0...3).contains(stars) else { throw ValidationError("--stars must be 0, 1, 2 or 3.") }
        guard score >= 0 else { throw ValidationError("--score cannot be negative.") }
    }

    func run() async throws {
        let save = try options.open().device.play(level: level, stars: stars, score: score)
        print("save: \(save.summary)")
    }
}
