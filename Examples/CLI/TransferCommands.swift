import ArgumentParser
import Foundation
import Stratus

/// `stratus put LOCAL NAME:path`: uploads a file, optionally only if absent or at a version.
struct PutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "put",
        abstract: "Upload a local file to NAME:path.",
        discussion: """
            A path ending in '/' (or NAME: alone) keeps the local file's name. With --if-absent \
            or --if-version, a file that is there (or at another version) is left alone and the \
            command exits with status 3.
            """
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The local file.") var local: String
    @Argument(help: "Where to put it, as NAME:path.", transform: RemoteLocation.parse) var destination: RemoteLocation
    @Flag(name: .long, help: "Write only if no file is at the path.") var ifAbsent = false
    @Option(
        name: .long, help: ArgumentHelp("Write only if the file's current version is this one.", valueName: "version"))
    var ifVersion: String?
    @Option(name: .long, help: ArgumentHelp("Metadata to attach, repeatable.", valueName: "key=value"))
    var meta: [String] = []

    func validate() throws {
        if ifAbsent, ifVersion != nil {
            throw ValidationError("--if-absent and --if-version cannot be used together.")
        }
    }

    func run() async throws {
        let file = URL(filePath: NSString(string: local).expandingTildeInPath)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isFolder), !isFolder.boolValue else {
            throw CLIFailure(
                .localFile, "There is no local file at \(file.path)\(isFolder.boolValue ? " (it is a folder)" : "").",
                next: "Give the path of a file to upload.")
        }
        var path = destination.path
        if destination.namesFolder {
            path = try global.explained { try path.appending(file.lastPathComponent) }
        }
        let precondition: WritePrecondition =
            if ifAbsent {
                .mustNotExist
            } else if let ifVersion {
                .mustMatch(VersionID(ifVersion))
            } else {
                WritePrecondition.none
            }
        var metadata: [String: String]?
        for pair in meta {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw CLIFailure(.usage, "'--meta \(pair)' is not key=value.")
            }
            metadata = metadata ?? [:]
            metadata?[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
        }
        let service = try global.service(named: destination.remote)
        let bar = ProgressBar.forTransfer("put \(path.name)", enabled: !global.json)
        let written = try await global.explained(remote: destination.remote, path: destination.path) {
            defer { bar?.finish() }
            return try await service.upload(
                from: .file(file), to: path,
                options: UploadOptions(precondition: precondition, metadata: metadata, progress: bar?.handler)
            )
        }
        if global.json {
            try Output.json(["file": FileDocument(written)])
        } else {
            Output.line(
                "Uploaded \(file.lastPathComponent) to \(destination.remote):\(written.path): version \(written.version), \(written.size) bytes, \(Output.short(written.contentHash))."
            )
        }
    }
}

/// `stratus get NAME:path LOCAL`: downloads a file (or an old version), hash-checked.
struct GetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Download NAME:path to a local file (replaced only by complete, hash-checked content).",
        discussion: "When LOCAL is a folder, the file keeps its remote name inside it."
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The remote file, as NAME:path.", transform: RemoteLocation.parse) var source: RemoteLocation
    @Argument(help: "The local file or folder.") var local: String
    @Option(
        name: .long, help: ArgumentHelp("An old version to download (see `stratus versions`).", valueName: "version"))
    var version: String?

    func run() async throws {
        guard !source.path.isRoot else {
            throw CLIFailure(
                .usage, "'\(source)' is the remote's root, not a file.",
                next: "Name a file, such as \(source.remote):slot-1.json.")
        }
        var destination = URL(filePath: NSString(string: local).expandingTildeInPath)
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: destination.path, isDirectory: &isFolder), isFolder.boolValue {
            destination = destination.appending(path: source.path.name)
        }
        let service = try global.service(named: source.remote)
        let bar = ProgressBar.forTransfer("get \(source.path.name)", enabled: !global.json)
        let read = try await global.explained(remote: source.remote, path: source.path) {
            defer { bar?.finish() }
            return try await service.download(
                source.path, version: version.map(VersionID.init(rawValue:)), to: destination,
                options: DownloadOptions(progress: bar?.handler)
            )
        }
        if global.json {
            try Output.json(GetDocument(file: FileDocument(read), local: destination.path))
        } else {
            Output.line(
                "Downloaded \(source) (version \(read.version), \(read.size) bytes, hash checked) to \(destination.path)."
            )
        }
    }

    struct GetDocument: Encodable {
        var file: FileDocument
        var local: String
    }
}
