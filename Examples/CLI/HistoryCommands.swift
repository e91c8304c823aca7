import ArgumentParser
import Foundation
import Stratus

/// `stratus versions NAME:path`: a file's history, newest first.
struct VersionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "versions",
        abstract: "List the versions of NAME:path the provider keeps, newest (current) first."
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The file, as NAME:path.", transform: RemoteLocation.parse) var location: RemoteLocation

    func run() async throws {
        let service = try global.service(named: location.remote)
        let versions = try await global.explained(remote: location.remote, path: location.path) {
            try await service.versions(of: location.path)
        }
        if global.json {
            try Output.json(
                VersionsDocument(
                    path: location.path.string,
                    versions: versions.enumerated().map { VersionDocument($1, current: $0 == 0) }
                ))
            return
        }
        for (index, version) in versions.enumerated() {
            let label = index == 0 ? "\tcurrent" : ""
            Output.line(
                "\(version.id)\t\(version.size)\t\(Output.date(version.modified))\t\(Output.short(version.contentHash))\(label)"
            )
        }
    }

    struct VersionsDocument: Encodable {
        var path: String
        var versions: [VersionDocument]
    }
}

/// `stratus restore NAME:path VERSION`: makes an old version current again.
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Make VERSION of NAME:path current again (history only grows: the current version stays listed)."
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The file, as NAME:path.", transform: RemoteLocation.parse) var location: RemoteLocation
    @Argument(help: "A version from `stratus versions`.") var version: String

    func run() async throws {
        let service = try global.service(named: location.remote)
        let restored = try await global.explained(remote: location.remote, path: location.path) {
            try await service.restore(location.path, to: VersionID(version))
        }
        if global.json {
            try Output.json(["file": FileDocument(restored)])
        } else {
            Output.line(
                "Restored \(location) to the content of version \(version); it is now version \(restored.version).")
        }
    }
}
