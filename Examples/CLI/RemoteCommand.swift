import ArgumentParser
import Foundation
import Stratus

/// `stratus remote add|list|show|remove`: the named remotes in the configuration file.
struct RemoteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remote",
        abstract: "Add, list, show and remove named remotes.",
        subcommands: [RemoteAddCommand.self, RemoteListCommand.self, RemoteShowCommand.self, RemoteRemoveCommand.self]
    )
}

/// A remote in JSON output, secrets redacted.
struct RemoteDocument: Encodable {
    var name: String
    var type: String
    var options: [String: String]
    /// Options whose value comes from an environment variable, by option name.
    var environment: [String: String]

    init(name: String, remote: StratusConfiguration.Remote, fileRemote: StratusConfiguration.Remote?) {
        self.name = name
        type = remote.type
        options = remote.options.reduce(into: [:]) { shown, option in
            shown[option.key] = RemoteOptions.isSecret(option.key) ? "<redacted>" : option.value
        }
        var overridden: [String: String] = [:]
        for key in remote.options.keys where fileRemote?.options[key] != remote.options[key] {
            overridden[key] = RemoteOptions.environmentName(remote: name, option: key)
        }
        if fileRemote?.type != remote.type {
            overridden["type"] = RemoteOptions.environmentName(remote: name, option: "type")
        }
        environment = overridden
    }

    /// One line: `name  type  key=value ...`.
    var line: String {
        let shown = options.keys.sorted().map { "\($0)=\(options[$0] ?? "")" }.joined(separator: " ")
        return "\(name)\t\(type)\t\(shown)"
    }
}

struct RemoteAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a remote (or replace one with --replace).",
        discussion: """
            Options are checked against the type's: an unknown key is refused with the valid \
            names. Types: local (root), dropbox (app_key and token_store, or access_token), ... \
            `stratus remote add NAME --type TYPE --help-options` lists a type's options.
            """
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The remote's name, used as NAME:path.") var name: String
    @Option(name: .long, help: "The backend type, such as local or dropbox.") var type: String
    @Option(name: .long, help: ArgumentHelp("An option of the remote, repeatable.", valueName: "key=value"))
    var option: [String] = []
    @Flag(name: .long, help: "Replace a remote of the same name.") var replace = false
    @Flag(name: .long, help: "List the type's options and exit.") var helpOptions = false

    func validate() throws {
        guard !name.isEmpty, !name.contains(":"), !name.contains("/") else {
            throw ValidationError("A remote's name may not be empty or contain ':' or '/'.")
        }
    }

    func run() async throws {
        guard let backend = Backends.registry.backend(forType: type) else {
            throw CLIFailure(
                .configuration,
                "There is no remote type '\(type)'; known types: \(Backends.registry.typeNames.joined(separator: ", "))."
            )
        }
        if helpOptions {
            for option in backend.options {
                Output.line("\(option.name)\(option.isRequired ? " (required)" : "")\t\(option.summary)")
            }
            return
        }
        var values: [String: String] = [:]
        for pair in option {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw CLIFailure(
                    .usage, "'--option \(pair)' is not key=value.", next: "Write it as --option root=/path/to/folder.")
            }
            values[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
        }
        let checked: RemoteOptions
        do {
            checked = try Backends.registry.validatedOptions(
                RemoteOptions(remoteName: name, typeName: type, values: values))
        } catch let error as ServiceError {
            throw CLIFailure(
                .configuration, kind: "\(error.code)", error.message,
                next:
                    "See the options of type \(backend.typeName) with `stratus remote add \(name) --type \(backend.typeName) --help-options`."
            )
        }
        var file = try global.fileConfiguration()
        if file.remotes[name] != nil, !replace {
            throw CLIFailure(
                .conflict, "A remote named '\(name)' already exists in \(global.configFile.path).",
                next: "Pass --replace to replace it, or choose another name.")
        }
        let remote = StratusConfiguration.Remote(type: checked.typeName, options: checked.values)
        file.remotes[name] = remote
        try global.explained(remote: name) { try file.save(to: global.configFile) }
        if global.json {
            try Output.json(["remote": RemoteDocument(name: name, remote: remote, fileRemote: remote)])
        } else {
            Output.line("Added remote '\(name)' (\(remote.type)) to \(global.configFile.path).")
            if Backends.signsIn(checked) {
                Output.line("Sign in with `stratus login \(name)`.")
            }
        }
    }
}

extension Backends {
    /// Whether a remote signs in with `stratus login` (it has a token store and no fixed token).
    static func signsIn(_ options: RemoteOptions) -> Bool {
        (options.string("access_token") ?? "").isEmpty && (try? signInProfile(for: options)) != nil
    }
}

struct RemoteListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the remotes (secrets redacted).")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let effective = try global.effectiveConfiguration()
        let file = try global.fileConfiguration()
        let documents = effective.remoteNames.compactMap { name in
            effective.remotes[name].map { RemoteDocument(name: name, remote: $0, fileRemote: file.remotes[name]) }
        }
        if global.json {
            try Output.json(ListDocument(config: global.configFile.path, remotes: documents))
        } else if documents.isEmpty {
            Output.line(
                "No remotes in \(global.configFile.path). Add one with `stratus remote add NAME --type local --option root=DIR`."
            )
        } else {
            for document in documents { Output.line(document.line) }
        }
    }

    struct ListDocument: Encodable {
        var config: String
        var remotes: [RemoteDocument]
    }
}

struct RemoteShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show a remote's type and options (secrets redacted).")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The remote's name.") var name: String

    func run() async throws {
        let effective = try global.effectiveConfiguration()
        guard let remote = effective.remotes[name] else {
            throw global.unknownRemote(name, in: effective)
        }
        let document = RemoteDocument(
            name: name, remote: remote, fileRemote: try global.fileConfiguration().remotes[name])
        // Checked like a command that uses it would, so a bad option shows here first.
        let problem: String?
        do {
            _ = try Backends.registry.validatedOptions(
                RemoteOptions(remoteName: name, typeName: remote.type, values: remote.options))
            problem = nil
        } catch let error as ServiceError {
            problem = error.message
        }
        if global.json {
            try Output.json(ShowDocument(remote: document, config: global.configFile.path, problem: problem))
            return
        }
        Output.line("name: \(name)")
        Output.line("type: \(document.type)\(document.environment["type"].map { "  (from \($0))" } ?? "")")
        for key in document.options.keys.sorted() {
            let source = document.environment[key].map { "  (from \($0))" } ?? ""
            Output.line("\(key): \(document.options[key] ?? "")\(source)")
        }
        Output.line("config: \(global.configFile.path)")
        if let problem {
            Output.line("problem: \(problem)")
        }
    }

    struct ShowDocument: Encodable {
        var remote: RemoteDocument
        var config: String
        var problem: String?
    }
}

struct RemoteRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove a remote from the configuration file (its files are left alone).")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The remote's name.") var name: String

    func run() async throws {
        var file = try global.fileConfiguration()
        guard file.remotes.removeValue(forKey: name) != nil else {
            let known =
                file.remoteNames.isEmpty
                ? "it has no remotes" : "its remotes: " + file.remoteNames.joined(separator: ", ")
            throw CLIFailure(
                .notFound, "There is no remote named '\(name)' in \(global.configFile.path); \(known).",
                next: "See them with `stratus remote list`.")
        }
        try global.explained(remote: name) { try file.save(to: global.configFile) }
        if global.json {
            try Output.json(["removed": name])
        } else {
            Output.line("Removed remote '\(name)' from \(global.configFile.path).")
        }
    }
}
