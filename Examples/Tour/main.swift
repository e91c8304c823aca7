import Foundation
import Stratus
import StratusLocal

/// Prints a message to standard error and exits with status 1.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("stratus-tour: \(message)\n".utf8))
    exit(1)
}

let arguments: TourArguments
do {
    arguments = try TourArguments(Array(CommandLine.arguments.dropFirst()))
} catch {
    fail("\(error)\n\n\(TourArguments.usage)")
}
if arguments.wantsHelp {
    print(TourArguments.usage)
    exit(0)
}

let scratch = FileManager.default.temporaryDirectory.appending(
    path: "stratus-tour-\(UUID().uuidString)", directoryHint: .isDirectory)
let root = arguments.root ?? scratch.appending(path: "cloud", directoryHint: .isDirectory)
let workFolder = scratch.appending(path: "local", directoryHint: .isDirectory)
defer { try? FileManager.default.removeItem(at: scratch) }

do {
    try FileManager.default.createDirectory(at: workFolder, withIntermediateDirectories: true)
    // Built by name, as an app would from its configuration file.
    let registry = ServiceRegistry(backends: [LocalBackend.self])
    let service = try registry.makeService(
        options: RemoteOptions(
            remoteName: "tour", typeName: "local", values: ["root": root.path]
        ))
    print("Stratus tour: a 'local' remote at \(root.path)")
    try await Tour(service: service, workFolder: workFolder).run()
    if arguments.root == nil {
        print(
            "\nDone. The tour ran in a temporary folder, now removed; pass --root DIR to keep the files and look around."
        )
    } else {
        print(
            "\nDone. The save file is at \(root.path)/saves/slot-1.json; versions and the change journal are in \(root.path)/.stratus."
        )
    }
} catch {
    try? FileManager.default.removeItem(at: scratch)
    fail("\(error)")
}
