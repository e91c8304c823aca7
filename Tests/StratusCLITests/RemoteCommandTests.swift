import Foundation
import Testing

@Suite struct RemoteCommandTests {
    @Test func addListShowAndRemoveARemote() async throws {
        try await CLISandbox.with { sandbox in
            let root = sandbox.path("cloud").path
            let added = try await sandbox.stratus(
                "remote", "add", "saves", "--type", "local", "--option", "root=\(root)")
            #expect(added.status == 0, "\(added.stderr)")
            #expect(added.stdout.contains("Added remote 'saves'"))
            let mode =
                try FileManager.default.attributesOfItem(atPath: sandbox.configFile.path)[.posixPermissions] as? Int
            #expect(mode == 0o600)

            let list = try await sandbox.stratus("remote", "list")
            #expect(list.status == 0)
            #expect(list.stdout.contains("saves\tlocal\troot=\(root)"))

            let listed = try await sandbox.stratus("remote", "list", "--json").json()
            let remotes = try #require(listed["remotes"] as? [[String: Any]])
            #expect(remotes.count == 1)
            #expect(remotes.first?["name"] as? String == "saves")
            #expect(remotes.first?["type"] as? String == "local")
            #expect((remotes.first?["options"] as? [String: String])?["root"] == root)

            let shown = try await sandbox.stratus("remote", "show", "saves")
            #expect(shown.status == 0)
            #expect(shown.stdout.contains("type: local"))
            #expect(shown.stdout.contains("root: \(root)"))

            let removed = try await sandbox.stratus("remote", "remove", "saves")
            #expect(removed.status == 0)
            let after = try await sandbox.stratus("remote", "list", "--json").json()
            #expect((after["remotes"] as? [Any])?.isEmpty == true)

            let again = try await sandbox.stratus("remote", "remove", "saves")
            #expect(again.status == 2)
            #expect(again.stderr.contains("stratus remote list"))
        }
    }

    @Test func secretsAreRedactedInShowAndList() async throws {
        try await CLISandbox.with { sandbox in
            let secret = "sl.secret-\(UUID().uuidString)"
            let added = try await sandbox.stratus(
                "remote", "add", "box", "--type", "dropbox",
                "--option", "access_token=\(secret)", "--option", "api_url=http://127.0.0.1:9"
            )
            #expect(added.status == 0, "\(added.stderr)")
            for arguments in [
                ["remote", "show", "box"], ["remote", "show", "box", "--json"], ["remote", "list"],
                ["remote", "list", "--json"],
            ] {
                let result = try await sandbox.run(arguments)
                #expect(result.status == 0)
                #expect(!result.stdout.contains(secret) && !result.stderr.contains(secret))
                #expect(result.stdout.contains("<redacted>"))
            }
            // The file itself keeps the token, readable by its owner only.
            #expect(try String(contentsOf: sandbox.configFile, encoding: .utf8).contains(secret))
        }
    }

    @Test func anUnknownOptionIsRefusedWithTheValidNames() async throws {
        try await CLISandbox.with { sandbox in
            let result = try await sandbox.stratus(
                "remote", "add", "saves", "--type", "local", "--option", "rot=/tmp/x")
            #expect(result.status == 8)
            #expect(result.stderr.contains("'rot'"))
            #expect(result.stderr.contains("chunk_size, max_versions, root"))
            #expect(result.stderr.contains("--help-options"))
            #expect(!FileManager.default.fileExists(atPath: sandbox.configFile.path))

            let unknownType = try await sandbox.stratus(
                "remote", "add", "saves", "--type", "floppy", "--option", "root=/tmp/x", "--json")
            #expect(unknownType.status == 8)
            let error = try #require(try unknownType.json()["error"] as? [String: Any])
            #expect(
                (error["message"] as? String)?.contains("known types: crypt, drive, dropbox, local, onedrive, s3")
                    == true)
            #expect(error["exit_status"] as? Int == 8)
        }
    }

    @Test func aTakenNameIsAConflictUnlessReplaced() async throws {
        try await CLISandbox.with { sandbox in
            #expect(
                try await sandbox.stratus("remote", "add", "saves", "--type", "local", "--option", "root=/tmp/one")
                    .status == 0)
            let taken = try await sandbox.stratus(
                "remote", "add", "saves", "--type", "local", "--option", "root=/tmp/two")
            #expect(taken.status == 3)
            #expect(taken.stderr.contains("--replace"))
            let replaced = try await sandbox.stratus(
                "remote", "add", "saves", "--type", "local", "--option", "root=/tmp/two", "--replace")
            #expect(replaced.status == 0)
            #expect(try await sandbox.stratus("remote", "show", "saves").stdout.contains("root: /tmp/two"))
        }
    }

    @Test func anUnknownRemoteSaysHowToAddIt() async throws {
        try await CLISandbox.with { sandbox in
            let result = try await sandbox.stratus("ls", "nowhere:")
            #expect(result.status == 8)
            #expect(result.stderr.contains("There is no remote named 'nowhere'"))
            #expect(result.stderr.contains("stratus remote add nowhere"))
        }
    }

    @Test func aBrokenConfigurationFileIsNamedWithWhereItBreaks() async throws {
        try await CLISandbox.with { sandbox in
            try sandbox.write("{\"remotes\": {\"saves\": {\"type\": \"local\",}}", to: "config/remotes.json")
            let result = try await sandbox.stratus("remote", "list")
            #expect(result.status == 8)
            #expect(result.stderr.contains(sandbox.configFile.path))
            #expect(result.stderr.contains("not valid"))

            let json = try await sandbox.stratus("ls", "saves:", "--json")
            #expect(json.status == 8)
            let error = try #require(try json.json()["error"] as? [String: Any])
            #expect(error["kind"] as? String == "invalidConfiguration")
            #expect((error["next_step"] as? String)?.isEmpty == false)

            try sandbox.write(
                "{\"remotes\": {\"saves\": {\"type\": \"local\", \"root\": \"/tmp\"}}}", to: "config/remotes.json")
            let misplaced = try await sandbox.stratus("remote", "list")
            #expect(misplaced.status == 8)
            #expect(misplaced.stderr.contains("unknown key 'root'"))
        }
    }

    @Test func theEnvironmentDefinesAndOverridesRemotes() async throws {
        try await CLISandbox.with { sandbox in
            let root = sandbox.path("env-cloud").path
            let environment = ["STRATUS_REMOTE_ENVY_TYPE": "local", "STRATUS_REMOTE_ENVY_ROOT": root]
            let file = try sandbox.write("from the environment", to: "note.txt")
            let put = try await sandbox.stratus("put", file.path, "envy:note.txt", environment: environment)
            #expect(put.status == 0, "\(put.stderr)")
            #expect(FileManager.default.fileExists(atPath: root + "/note.txt"))

            let shown = try await sandbox.stratus("remote", "show", "envy", "--json", environment: environment).json()
            let remote = try #require(shown["remote"] as? [String: Any])
            #expect((remote["environment"] as? [String: String])?["root"] == "STRATUS_REMOTE_ENVY_ROOT")

            // Without the variables the remote does not exist.
            #expect(try await sandbox.stratus("ls", "envy:").status == 8)
        }
    }

    @Test func usageErrorsExitWithStatusOne() async throws {
        try await CLISandbox.with { sandbox in
            let missing = try await sandbox.stratus("put", "only-one-argument")
            #expect(missing.status == 1)
            let location = try await sandbox.stratus("stat", "no-colon-here")
            #expect(location.status == 1)
            #expect(location.stderr.contains("NAME:path"))
            let both = try await sandbox.stratus("put", "a", "s:a", "--if-absent", "--if-version", "3")
            #expect(both.status == 1)
            let help = try await sandbox.stratus("--help")
            #expect(help.status == 0)
            #expect(help.stdout.contains("Exit status:"))
            #expect(help.stdout.contains("3  conflict"))
        }
    }
}

extension CLISandbox {
    /// Runs `stratus` with an argument array.
    func run(_ arguments: [String], environment extra: [String: String] = [:]) async throws -> CLIResult {
        let process = try RunningProcess(
            try Executables.url(of: "stratus"), arguments, environment: processEnvironment(extra))
        return try await process.finish()
    }
}
