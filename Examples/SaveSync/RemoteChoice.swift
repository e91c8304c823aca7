import ArgumentParser
import Foundation
import Stratus

/// Which remote the saves sync through: a configured remote by name, a type with options given
/// here, or by default a `local` remote in a folder, so the example runs with no account.
struct RemoteChoice: ParsableArguments {
    @Option(name: .long, help: "A remote from the Stratus configuration file (see `stratus remote add`).")
    var remote: String?

    @Option(name: .long, help: "The configuration file for --remote (default: Stratus's default location).")
    var config: String?

    @Option(name: .long, help: "A remote type to use without configuration: local, dropbox, ...")
    var type: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "An option for --type, repeatable. STRATUS_REMOTE_SAVE_SYNC_<OPTION> variables work too.",
            valueName: "key=value"
        ))
    var option: [String] = []

    func validate() throws {
        if remote != nil, type != nil {
            throw ValidationError(
                "Choose the remote with --remote NAME or with --type TYPE --option key=value, not both.")
        }
        if type == nil, !option.isEmpty {
            throw ValidationError("--option needs --type (or put the options in the configuration and use --remote).")
        }
    }

    /// The service, and a phrase describing it for the narration.
    /// - Parameter defaultRoot: The folder of the `local` remote used when no remote is chosen
    ///   (and of `--type local` without a `root`).
    func makeService(defaultRoot: URL) throws -> (service: any Service, label: String) {
        let environment = ProcessInfo.processInfo.environment
        if let remote {
            let configuration =
                if let config {
                    try StratusConfiguration.load(from: URL(filePath: NSString(string: config).expandingTildeInPath))
                } else {
                    try StratusConfiguration.loadDefault()
                }
            let type = configuration.remotes[remote]?.type ?? "?"
            return (
                try Backends.registry.makeService(named: remote, in: configuration),
                "the configured remote '\(remote)' (\(type))"
            )
        }
        let type = self.type ?? "local"
        var values: [String: String] = [:]
        for pair in option {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw SaveSyncFailure("'--option \(pair)' is not key=value, as in --option root=/tmp/cloud.")
            }
            values[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
        }
        if type.lowercased() == "local", values["root"] == nil {
            values["root"] = defaultRoot.path
        }
        let name = "save-sync"
        let configuration = try StratusConfiguration(remotes: [name: .init(type: type, options: values)])
            .applyingEnvironmentOverrides(environment)
        let service = try Backends.registry.makeService(named: name, in: configuration)
        let place = type.lowercased() == "local" ? " at \(configuration.remotes[name]?.options["root"] ?? "?")" : ""
        return (service, "a '\(type)' remote\(place)")
    }

    /// Whether the remote is the default local folder, which needs no account.
    var isDefault: Bool { remote == nil && type == nil }
}
