import Foundation
import Stratus
import StratusTestSupport
import Testing

@Suite("StratusConfiguration: environment overrides")
struct EnvironmentOverrideTests {
    static let file = StratusConfiguration(remotes: [
        "saves": .init(type: "local", options: ["root": "/home/me/saves"]),
        "cloud": .init(type: "dropbox", options: ["App-Key": "from-file", "token_store": "/tokens.json"]),
    ])

    @Test("a remote can be defined by the environment alone, named by its lower-cased word")
    func typeOnlyRemote() throws {
        let configuration = try Self.file.applyingEnvironmentOverrides([
            "STRATUS_REMOTE_BACKUP_TYPE": "local",
            "STRATUS_REMOTE_BACKUP_ROOT": "/mnt/backup",
        ])
        #expect(configuration.remotes["backup"] == .init(type: "local", options: ["root": "/mnt/backup"]))
        #expect(configuration.remotes["saves"] == Self.file.remotes["saves"])
        let options = try configuration.options(forRemote: "backup")
        #expect(options.typeName == "local")
    }

    @Test("_TYPE overrides the type of a remote from the file and keeps its options")
    func typeOverride() throws {
        let configuration = try Self.file.applyingEnvironmentOverrides(["STRATUS_REMOTE_SAVES_TYPE": "drive"])
        #expect(configuration.remotes["saves"] == .init(type: "drive", options: ["root": "/home/me/saves"]))
    }

    @Test("an option override replaces the file's key whose name differs only in case or punctuation")
    func caseInsensitiveOptionMatch() throws {
        let configuration = try Self.file.applyingEnvironmentOverrides([
            "STRATUS_REMOTE_CLOUD_APP_KEY": "from-environment",
            "STRATUS_REMOTE_CLOUD_TOKEN_STORE": "/other-tokens.json",
        ])
        #expect(
            configuration.remotes["cloud"]?.options == [
                "App-Key": "from-environment", "token_store": "/other-tokens.json",
            ])
    }

    @Test("an option the file does not have is added under its lower-cased name")
    func newOptionLowerCased() throws {
        let configuration = try Self.file.applyingEnvironmentOverrides(["STRATUS_REMOTE_SAVES_READ_ONLY": "yes"])
        #expect(configuration.remotes["saves"]?.options == ["root": "/home/me/saves", "read_only": "yes"])
    }

    @Test("remote names with punctuation or capitals match their environment word")
    func punctuatedRemoteName() throws {
        let file = StratusConfiguration(remotes: ["Game-Saves": .init(type: "local", options: ["root": "/a"])])
        let configuration = try file.applyingEnvironmentOverrides([
            "STRATUS_REMOTE_GAME_SAVES_ROOT": "/b",
            "STRATUS_REMOTE_GAME_SAVES_TYPE": "drive",
        ])
        #expect(
            configuration
                == StratusConfiguration(remotes: ["Game-Saves": .init(type: "drive", options: ["root": "/b"])]))
        #expect(RemoteOptions.environmentName(remote: "Game-Saves", option: "root") == "STRATUS_REMOTE_GAME_SAVES_ROOT")
    }

    @Test("when one remote's name starts another's, the longer name wins")
    func longestRemoteNameWins() throws {
        let file = StratusConfiguration(remotes: [
            "game": .init(type: "local", options: ["root": "/game"]),
            "game_saves": .init(type: "local", options: ["root": "/game-saves"]),
        ])
        let configuration = try file.applyingEnvironmentOverrides([
            "STRATUS_REMOTE_GAME_SAVES_ROOT": "/new-saves",
            "STRATUS_REMOTE_GAME_ROOT": "/new-game",
        ])
        #expect(configuration.remotes["game_saves"]?.options == ["root": "/new-saves"])
        #expect(configuration.remotes["game"]?.options == ["root": "/new-game"])
    }

    @Test("a variable that could mean two remotes is an error naming both")
    func ambiguousRemote() throws {
        let file = StratusConfiguration(remotes: [
            "my-saves": .init(type: "local", options: [:]),
            "my_saves": .init(type: "local", options: [:]),
        ])
        let error = try #require(throws: ServiceError.self) {
            try file.applyingEnvironmentOverrides(["STRATUS_REMOTE_MY_SAVES_ROOT": "/x"])
        }
        #expect(error.code == .invalidConfiguration)
        #expect(error.message.contains("STRATUS_REMOTE_MY_SAVES_ROOT"))
        #expect(error.message.contains("'my-saves' and 'my_saves'"))
        #expect(!error.message.contains("/x"))
    }

    @Test("a variable that could mean two options of one remote is an error naming both")
    func ambiguousOption() throws {
        let file = StratusConfiguration(remotes: [
            "cloud": .init(type: "dropbox", options: ["app-key": "1", "app_key": "2"])
        ])
        let error = try #require(throws: ServiceError.self) {
            try file.applyingEnvironmentOverrides(["STRATUS_REMOTE_CLOUD_APP_KEY": "s3cr3t-value"])
        }
        #expect(error.message.contains("'app-key' and 'app_key'"))
        #expect(!error.description.contains("s3cr3t-value"))
    }

    @Test("unrelated variables, empty values and variables for unconfigured remotes change nothing")
    func ignoredVariables() throws {
        let configuration = try Self.file.applyingEnvironmentOverrides([
            "HOME": "/home/me",
            "STRATUS_CONFIG": "/x.json",
            "STRATUS_REMOTE_": "x",
            "STRATUS_REMOTE_SAVES_ROOT": "",
            "STRATUS_REMOTE_SAVES_TYPE": "",
            "STRATUS_REMOTE_ELSEWHERE_ROOT": "/elsewhere",
            "STRATUS_REMOTE_SAVES": "no option part",
            "STRATUS_REMOTE__TYPE": "no name part",
        ])
        #expect(configuration == Self.file)
    }

    @Test("applying overrides leaves the original untouched")
    func pure() throws {
        let original = Self.file
        _ = try original.applyingEnvironmentOverrides(["STRATUS_REMOTE_SAVES_ROOT": "/changed"])
        #expect(original == Self.file)
    }

    @Test("load applies the environment it is given on top of the file")
    func loadAppliesOverrides() throws {
        try withTemporaryFolder(prefix: "StratusTests") { folder in
            let url = folder.appendingPathComponent("remotes.json")
            try Self.file.save(to: url)
            let configuration = try StratusConfiguration.load(
                from: url,
                environment: [
                    "STRATUS_REMOTE_CLOUD_APP_KEY": "env-key",
                    "STRATUS_REMOTE_EXTRA_TYPE": "local",
                ])
            #expect(configuration.remotes["cloud"]?.options["App-Key"] == "env-key")
            #expect(configuration.remoteNames == ["cloud", "extra", "saves"])
            #expect(try StratusConfiguration.load(from: url, environment: [:]) == Self.file)
        }
    }
}
