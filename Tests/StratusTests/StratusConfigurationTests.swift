import Foundation
import Stratus
import StratusTestSupport
import Testing

@Suite("StratusConfiguration: the file")
struct StratusConfigurationTests {
    static let example = StratusConfiguration(remotes: [
        "saves": .init(type: "local", options: ["root": "/home/me/.local/share/game/saves"]),
        "cloud": .init(
            type: "dropbox", options: ["app_key": "abc123", "token_store": "/home/me/.config/stratus/tokens.json"]),
    ])

    @Test("save then load gives back the same configuration, in a new folder, with permissions 0600")
    func roundTrip() throws {
        try withTemporaryFolder(prefix: "StratusTests") { folder in
            let url = folder.appendingPathComponent("new/stratus/remotes.json")
            try Self.example.save(to: url)

            let loaded = try StratusConfiguration.load(from: url, environment: [:])
            #expect(loaded == Self.example)

            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            let permissions = try #require(attributes[.posixPermissions] as? NSNumber)
            #expect(permissions.intValue & 0o777 == 0o600)
            let folderAttributes = try FileManager.default.attributesOfItem(
                atPath: url.deletingLastPathComponent().path)
            let folderPermissions = try #require(folderAttributes[.posixPermissions] as? NSNumber)
            #expect(folderPermissions.intValue & 0o777 == 0o700)
        }
    }

    @Test("saving over a readable file replaces it with a 0600 file and leaves no temporary file")
    func saveReplaces() throws {
        try withTemporaryFolder(prefix: "StratusTests") { folder in
            let url = folder.appendingPathComponent("remotes.json")
            try Data("{\"remotes\": {}}".utf8).write(to: url)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)

            try Self.example.save(to: url)
            var smaller = Self.example
            smaller.remotes["cloud"] = nil
            try smaller.save(to: url)

            #expect(try StratusConfiguration.load(from: url, environment: [:]) == smaller)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["remotes.json"])
            let permissions = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber
            #expect(permissions?.intValue == 0o600)
        }
    }

    @Test("the saved file is readable JSON in the documented schema")
    func savedSchema() throws {
        try withTemporaryFolder(prefix: "StratusTests") { folder in
            let url = folder.appendingPathComponent("remotes.json")
            try Self.example.save(to: url)
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
            let remotes = try #require(object?["remotes"] as? [String: Any])
            let saves = try #require(remotes["saves"] as? [String: Any])
            #expect(saves["type"] as? String == "local")
            #expect((saves["options"] as? [String: String])?["root"] == "/home/me/.local/share/game/saves")
        }
    }

    @Test("saving through a symbolic link replaces the file it points to and keeps the link")
    func saveThroughSymlink() throws {
        try withTemporaryFolder(prefix: "StratusTests") { folder in
            let target = folder.appendingPathComponent("dotfiles/remotes.json")
            try StratusConfiguration().save(to: target)
            let link = folder.appendingPathComponent("remotes.json")
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)

            try Self.example.save(to: link)

            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
            #expect(try StratusConfiguration.load(from: target, environment: [:]) == Self.example)
        }
    }

    @Test("saving where the folder cannot be created is a localFile error naming the folder")
    func saveFailure() throws {
        try withTemporaryFolder(prefix: "StratusTests") { folder in
            let blocker = folder.appendingPathComponent("not-a-folder")
            try Data("x".utf8).write(to: blocker)
            let url = blocker.appendingPathComponent("remotes.json")
            let error = try #require(throws: ServiceError.self) { try Self.example.save(to: url) }
            #expect(error.code == .localFile)
            #expect(error.message.contains(blocker.path))
        }
    }

    @Test("the documented example loads; numbers and booleans become text; options may be left out")
    func documentedExample() throws {
        let json = """
            { "remotes": { "saves": { "type": "local", "options": { "root": "/home/me/.local/share/game/saves" } },
                           "cloud": { "type": "dropbox", "options": { "app_key": "...", "token_store": "...", "chunk_size": 8388608, "read_only": true, "ratio": 1.5 } },
                           "bare": { "type": "local", "x-note": "kept for another tool" } } }
            """
        let configuration = try load(json)
        #expect(configuration.remoteNames == ["bare", "cloud", "saves"])
        #expect(
            configuration.remotes["saves"]
                == .init(type: "local", options: ["root": "/home/me/.local/share/game/saves"]))
        let cloud = try configuration.options(forRemote: "cloud")
        #expect(cloud.remoteName == "cloud")
        #expect(cloud.typeName == "dropbox")
        #expect(cloud.values["chunk_size"] == "8388608")
        #expect(cloud.values["read_only"] == "true")
        #expect(cloud.values["ratio"] == "1.5")
        #expect(configuration.remotes["bare"]?.options == [:])
    }

    @Test("unknown top-level keys are ignored and a file without remotes is empty")
    func forwardCompatible() throws {
        #expect(
            try load(#"{"version": 7, "remotes": {"a": {"type": "local"}}, "future": [1, 2]}"#).remoteNames == ["a"])
        #expect(try load(#"{"version": 7}"#) == StratusConfiguration())
    }

    @Test(
        "a malformed file is an invalidConfiguration error that names the file and the place",
        arguments: [
            ("{\"remotes\": {\n  \"a\": {\"type\": \"local\",, }}}", "line 2"),
            ("", "not valid JSON"),
            ("[1, 2]", "the top level"),
            (#"{"remotes": []}"#, "at remotes"),
            (#"{"remotes": {"cloud": {"options": {}}}}"#, #"at remotes.cloud, the required key "type" is missing"#),
            (#"{"remotes": {"cloud": {"type": 3}}}"#, "at remotes.cloud.type, expected a string"),
            (
                #"{"remotes": {"cloud": {"type": "dropbox", "options": {"app_key": ["a"]}}}}"#,
                "at remotes.cloud.options.app_key"
            ),
            (#"{"remotes": {"cloud": {"type": "dropbox", "option": {}}}}"#, "unknown key 'option'"),
        ]
    )
    func malformed(json: String, expected: String) throws {
        try withTemporaryFolder(prefix: "StratusTests") { folder in
            let url = folder.appendingPathComponent("remotes.json")
            try Data(json.utf8).write(to: url)
            let error = try #require(throws: ServiceError.self) {
                try StratusConfiguration.load(from: url, environment: [:])
            }
            #expect(error.code == .invalidConfiguration)
            #expect(error.message.contains(url.path))
            #expect(error.message.contains(expected), "\(error.message)")
        }
    }

    @Test("a malformed file's error never quotes a value from it")
    func malformedWithoutValues() throws {
        try withTemporaryFolder(prefix: "StratusTests") { folder in
            let url = folder.appendingPathComponent("remotes.json")
            let json =
                #"{"remotes": {"cloud": {"type": "dropbox", "options": {"client_secret": "s3cr3t-value" "app_key": 1}}}}"#
            try Data(json.utf8).write(to: url)
            let error = try #require(throws: ServiceError.self) {
                try StratusConfiguration.load(from: url, environment: [:])
            }
            #expect(error.message.contains("line 1"))
            #expect(!error.description.contains("s3cr3t"))
        }
    }

    @Test("a file given explicitly must exist")
    func explicitMissingFile() throws {
        try withTemporaryFolder(prefix: "StratusTests") { folder in
            let url = folder.appendingPathComponent("missing.json")
            let error = try #require(throws: ServiceError.self) {
                try StratusConfiguration.load(from: url, environment: [:])
            }
            #expect(error.code == .invalidConfiguration)
            #expect(error.message.contains(url.path))
            #expect(error.message.contains("does not exist"))
        }
    }

    @Test("a folder in place of the file is an error that names it")
    func folderInsteadOfFile() throws {
        try withTemporaryFolder(prefix: "StratusTests") { folder in
            let error = try #require(throws: ServiceError.self) {
                try StratusConfiguration.load(from: folder, environment: [:])
            }
            #expect(error.code == .invalidConfiguration)
            #expect(error.message.contains(folder.path))
            #expect(error.message.contains("could not be read"))
        }
    }

    @Test("the default file is $STRATUS_CONFIG, else under $XDG_CONFIG_HOME, else under ~/.config")
    func defaultFileURL() {
        #expect(
            StratusConfiguration.defaultFileURL(environment: [
                "STRATUS_CONFIG": "/etc/app/remotes.json", "XDG_CONFIG_HOME": "/xdg", "HOME": "/home/me",
            ]).path == "/etc/app/remotes.json")
        #expect(
            StratusConfiguration.defaultFileURL(environment: ["STRATUS_CONFIG": "~/app.json", "HOME": "/home/me"]).path
                == "/home/me/app.json")
        #expect(
            StratusConfiguration.defaultFileURL(environment: ["XDG_CONFIG_HOME": "/xdg", "HOME": "/home/me"]).path
                == "/xdg/stratus/remotes.json")
        #expect(
            StratusConfiguration.defaultFileURL(environment: ["HOME": "/home/me"]).path
                == "/home/me/.config/stratus/remotes.json")
        // The XDG specification says a relative XDG_CONFIG_HOME is invalid and is ignored; so is an empty one.
        #expect(
            StratusConfiguration.defaultFileURL(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/home/me"]).path
                == "/home/me/.config/stratus/remotes.json")
        #expect(
            StratusConfiguration.defaultFileURL(environment: [
                "STRATUS_CONFIG": "", "XDG_CONFIG_HOME": "", "HOME": "/home/me",
            ]).path == "/home/me/.config/stratus/remotes.json")
    }

    @Test("a missing file at the default location is an empty configuration, plus the environment's remotes")
    func loadDefaultMissing() throws {
        try withTemporaryFolder(prefix: "StratusTests") { folder in
            let environment = [
                "HOME": folder.path, "STRATUS_REMOTE_SCRATCH_TYPE": "local",
                "STRATUS_REMOTE_SCRATCH_ROOT": "/tmp/scratch",
            ]
            let configuration = try StratusConfiguration.loadDefault(environment: environment)
            #expect(
                configuration
                    == StratusConfiguration(remotes: [
                        "scratch": .init(type: "local", options: ["root": "/tmp/scratch"])
                    ]))
            #expect(
                try StratusConfiguration.loadDefault(environment: ["XDG_CONFIG_HOME": folder.path])
                    == StratusConfiguration())
        }
    }

    @Test("the default location's file is read and the environment applied to it")
    func loadDefaultPresent() throws {
        try withTemporaryFolder(prefix: "StratusTests") { folder in
            try Self.example.save(to: folder.appendingPathComponent("stratus/remotes.json"))
            let configuration = try StratusConfiguration.loadDefault(environment: [
                "XDG_CONFIG_HOME": folder.path,
                "STRATUS_REMOTE_SAVES_ROOT": "/elsewhere",
            ])
            #expect(configuration.remotes["saves"]?.options["root"] == "/elsewhere")
            #expect(configuration.remotes["cloud"] == Self.example.remotes["cloud"])
        }
    }

    @Test("a file named by $STRATUS_CONFIG must exist")
    func loadDefaultExplicitMissing() throws {
        try withTemporaryFolder(prefix: "StratusTests") { folder in
            let url = folder.appendingPathComponent("nope.json")
            let error = try #require(throws: ServiceError.self) {
                try StratusConfiguration.loadDefault(environment: ["STRATUS_CONFIG": url.path])
            }
            #expect(error.code == .invalidConfiguration)
            #expect(error.message.contains(url.path))
        }
    }

    @Test("asking for an unknown remote lists the configured names")
    func unknownRemote() throws {
        let error = try #require(throws: ServiceError.self) { try Self.example.options(forRemote: "backup") }
        #expect(error.code == .invalidConfiguration)
        #expect(error.message.contains("'backup'"))
        #expect(error.message.contains("configured remotes: cloud, saves"))
        #expect(error.message.contains("STRATUS_REMOTE_BACKUP_TYPE"))

        let empty = try #require(throws: ServiceError.self) { try StratusConfiguration().options(forRemote: "saves") }
        #expect(empty.message.contains("no remotes are configured"))
    }

    @Test("descriptions and dumps show option values but never secret ones")
    func descriptionsHideSecrets() {
        let configuration = StratusConfiguration(remotes: [
            "cloud": .init(
                type: "dropbox",
                options: ["client_secret": "s3cr3t-value", "access_token": "s3cr3t-value", "region": "eu"])
        ])
        var dumped = ""
        dump(configuration, to: &dumped)
        let texts = [
            configuration.description, String(reflecting: configuration), "\(configuration)", dumped,
            configuration.remotes["cloud"]?.description ?? "",
        ]
        for text in texts {
            #expect(!text.contains("s3cr3t"), "\(text)")
            #expect(text.contains("eu"), "\(text)")
        }
        #expect(configuration.description.contains("client_secret: <redacted>"))
    }

    private func load(_ json: String) throws -> StratusConfiguration {
        try withTemporaryFolder(prefix: "StratusTests") { folder in
            let url = folder.appendingPathComponent("remotes.json")
            try Data(json.utf8).write(to: url)
            return try StratusConfiguration.load(from: url, environment: [:])
        }
    }
}
