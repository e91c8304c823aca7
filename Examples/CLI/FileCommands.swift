import ArgumentParser
import Foundation
import Stratus

/// `stratus ls NAME:[path]`: the files at or below a folder.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "List the files at or below NAME:folder (recursively), sorted by path."
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The folder, as NAME: or NAME:path.", transform: RemoteLocation.parse) var folder: RemoteLocation

    func run() async throws {
        let service = try global.service(named: folder.remote)
        let files = try await global.explained(remote: folder.remote, path: folder.path) {
            try await service.list(folder.path)
        }
        .sorted { $0.path < $1.path }
        if global.json {
            try Output.json(["files": files.map(FileDocument.init)])
            return
        }
        for file in files {
            Output.line("\(file.size)\t\(Output.date(file.modified))\t\(file.version)\t\(file.path)")
        }
    }
}

/// `stratus stat NAME:path`: one file's description.
struct StatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stat", abstract: "Describe the file at NAME:path.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The file, as NAME:path.", transform: RemoteLocation.parse) var location: RemoteLocation

    func run() async throws {
        let service = try global.service(named: location.remote)
        let file = try await global.explained(remote: location.remote, path: location.path) {
            try await service.metadata(of: location.path)
        }
        if global.json {
            try Output.json(["file": FileDocument(file)])
            return
        }
        Output.line("path: \(file.path)")
        Output.line("version: \(file.version)")
        Output.line("size: \(file.size)")
        Output.line("modified: \(Output.date(file.modified))")
        Output.line("hash: \(file.contentHash?.description ?? "-")")
        Output.line("id: \(file.id)")
        for key in file.metadata.keys.sorted() {
            Output.line("metadata \(key): \(file.metadata[key] ?? "")")
        }
    }
}

/// `stratus rm NAME:path`: deletes a file; its versions stay where the provider keeps them.
struct RemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Delete the file at NAME:path (its versions stay restorable where the provider keeps them)."
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The file, as NAME:path.", transform: RemoteLocation.parse) var location: RemoteLocation
    @Option(name: .long, help: ArgumentHelp("Delete only if the current version is this one.", valueName: "version"))
    var ifVersion: String?

    func run() async throws {
        let service = try global.service(named: location.remote)
        let precondition: WritePrecondition = ifVersion.map { .mustMatch(VersionID($0)) } ?? WritePrecondition.none
        try await global.explained(remote: location.remote, path: location.path) {
            try await service.delete(location.path, precondition: precondition)
        }
        if global.json {
            try Output.json(["deleted": location.path.string])
        } else {
            Output.line("Deleted \(location).")
        }
    }
}
