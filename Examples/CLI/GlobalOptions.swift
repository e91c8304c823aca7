import ArgumentParser
import Foundation
import Stratus

/// The options every `stratus` command takes.
struct GlobalOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The configuration file (default: $STRATUS_CONFIG, else $XDG_CONFIG_HOME/stratus/remotes.json, else ~/.config/stratus/remotes.json).",
            valueName: "path"
        ))
    var config: String?

    @Flag(name: .long, help: "Print one JSON document with stable keys instead of text.")
    var json = false

    /// The configuration file this command reads and writes.
    var configFile: URL {
        if let config {
            return URL(filePath: NSString(string: config).expandingTildeInPath)
        }
        return StratusConfiguration.defaultFileURL()
    }

    /// The configuration as the library sees it: the file, then the environment's overrides. A
    /// missing file is an empty configuration (commands then say which remote is missing).
    func effectiveConfiguration() throws -> StratusConfiguration {
        try explained {
            guard FileManager.default.fileExists(atPath: configFile.path) else {
                return try StratusConfiguration().applyingEnvironmentOverrides(ProcessInfo.processInfo.environment)
            }
            return try StratusConfiguration.load(from: configFile)
        }
    }

    /// The file alone, without environment overrides, for commands that edit it. A missing file
    /// is an empty configuration.
    func fileConfiguration() throws -> StratusConfiguration {
        try explained {
            guard FileManager.default.fileExists(atPath: configFile.path) else { return StratusConfiguration() }
            return try StratusConfiguration.load(from: configFile, environment: [:])
        }
    }

    /// Builds the service of a configured remote.
    func service(named remote: String) throws -> any Service {
        let configuration = try effectiveConfiguration()
        guard configuration.remotes[remote] != nil else {
            throw unknownRemote(remote, in: configuration)
        }
        return try explained(remote: remote) {
            try Backends.registry.resolvingWrappedRemotes(in: configuration)
            return try Backends.registry.makeService(named: remote, in: configuration)
        }
    }

    /// Runs `body`, turning a ``ServiceError`` into a ``CLIFailure`` with a next step.
    func explained<T>(remote: String? = nil, path: RemotePath? = nil, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ServiceError {
            throw CLIFailure.explaining(error, remote: remote, path: path, configFile: configFile)
        }
    }

    /// Runs async `body`, turning a ``ServiceError`` into a ``CLIFailure`` with a next step.
    func explained<T>(remote: String? = nil, path: RemotePath? = nil, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as ServiceError {
            throw CLIFailure.explaining(error, remote: remote, path: path, configFile: configFile)
        }
    }

    /// The failure for a remote name the configuration does not have, saying how to add it.
    func unknownRemote(_ remote: String, in configuration: StratusConfiguration) -> CLIFailure {
        let known =
            configuration.remoteNames.isEmpty
            ? "no remotes are configured"
            : "configured remotes: " + configuration.remoteNames.joined(separator: ", ")
        return CLIFailure(
            .configuration, kind: "invalidConfiguration",
            "There is no remote named '\(remote)' in \(configFile.path); \(known).",
            next:
                "Add it with `stratus remote add \(remote) --type TYPE --option KEY=VALUE` (types: \(Backends.registry.typeNames.joined(separator: ", "))), or define it with \(RemoteOptions.environmentName(remote: remote, option: "type"))."
        )
    }
}
