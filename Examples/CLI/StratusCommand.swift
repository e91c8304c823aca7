import ArgumentParser

#if !Development
    #error("The tools and examples build with the package's Development trait: swift run --traits Development")
#endif

/// `stratus`: named remotes and the files on them, from the command line.
struct StratusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stratus",
        abstract: "Upload, download, list, version and watch files on cloud storage remotes chosen by name.",
        discussion: """
            Remotes are named in a JSON configuration file (see --config) and set up with \
            `stratus remote add`. Environment variables override it: \
            STRATUS_REMOTE_<NAME>_TYPE and STRATUS_REMOTE_<NAME>_<OPTION>. Files are written \
            NAME:path, such as saves:slot-1.json; NAME: alone is the remote's root.

            Examples:
              stratus remote add saves --type local --option root=~/cloud-saves
              stratus put slot-1.json saves:slot-1.json --if-absent
              stratus versions saves:slot-1.json
              stratus changes saves --since TOKEN --json

            Transfers show a progress bar on standard error when it is a terminal. With \
            --json, every command prints one JSON document on standard output (errors too, \
            as {"error": {...}}); `changes --follow --json` prints one document per line. --config and --json \
            go after the subcommand: `stratus ls saves: --json`.

            \(ExitStatus.table)
            """,
        subcommands: [
            RemoteCommand.self, LoginCommand.self, LogoutCommand.self,
            PutCommand.self, GetCommand.self, ListCommand.self, StatCommand.self, RemoveCommand.self,
            ChangesCommand.self, VersionsCommand.self, RestoreCommand.self, CryptCommand.self,
        ]
    )
}
