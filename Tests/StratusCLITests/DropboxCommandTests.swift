import Foundation
import StratusTestSupport
import Testing

/// The same commands against a mock Dropbox running in this process.
@Suite struct DropboxCommandTests {
    /// A sandbox with a `dropbox` remote named `box` pointed at a running mock; the token comes
    /// from the environment.
    static func withDropboxRemote(_ body: @Sendable @escaping (CLISandbox, DropboxMock) async throws -> Void)
        async throws
    {
        try await DropboxMock.withRunning { mock in
            try await CLISandbox.with { base in
                var sandbox = base
                sandbox.environment = mock.tokenEnvironment(remote: "box")
                let added = try await sandbox.run(["remote", "add", "box", "--type", "dropbox"] + mock.hostOptions)
                #expect(added.status == 0, "\(added.stderr)")
                try await body(sandbox, mock)
            }
        }
    }

    @Test func filesRoundTripThroughTheMock() async throws {
        try await Self.withDropboxRemote { sandbox, _ in
            let first = try sandbox.write("level 1", to: "first.txt")
            let second = try sandbox.write("level 2, more coins", to: "second.txt")
            let put = try await sandbox.stratus("put", first.path, "box:saves/slot.txt", "--if-absent", "--json")
            #expect(put.status == 0, "\(put.stderr)")
            let v1 = try #require((try put.json()["file"] as? [String: Any])?["version"] as? String)
            #expect(try await sandbox.stratus("put", second.path, "box:saves/slot.txt", "--if-version", v1).status == 0)

            let copy = sandbox.path("copy.txt")
            #expect(try await sandbox.stratus("get", "box:saves/slot.txt", copy.path).status == 0)
            #expect(try String(contentsOf: copy, encoding: .utf8) == "level 2, more coins")

            let listed = try #require(
                try await sandbox.stratus("ls", "box:", "--json").json()["files"] as? [[String: Any]])
            #expect(listed.compactMap { $0["path"] as? String } == ["saves/slot.txt"])
            let stat = try #require(
                try await sandbox.stratus("stat", "box:saves/slot.txt", "--json").json()["file"] as? [String: Any])
            #expect((stat["content_hash"] as? String)?.hasPrefix("dropbox") == true)

            let history = try #require(
                try await sandbox.stratus("versions", "box:saves/slot.txt", "--json").json()["versions"]
                    as? [[String: Any]])
            #expect(history.count == 2)
            #expect(history.last?["id"] as? String == v1)
            let restored = try await sandbox.stratus("restore", "box:saves/slot.txt", v1)
            #expect(restored.status == 0, "\(restored.stderr)")
            #expect(try await sandbox.stratus("get", "box:saves/slot.txt", copy.path).status == 0)
            #expect(try String(contentsOf: copy, encoding: .utf8) == "level 1")

            let stale = try await sandbox.stratus("put", first.path, "box:saves/slot.txt", "--if-version", v1)
            #expect(stale.status == 3, "\(stale.stderr)")

            #expect(try await sandbox.stratus("rm", "box:saves/slot.txt").status == 0)
            #expect(try await sandbox.stratus("stat", "box:saves/slot.txt").status == 2)
            #expect(try await sandbox.stratus("get", "box:nothing.txt", copy.path).status == 2)
        }
    }

    @Test func changesSinceATokenOnTheMock() async throws {
        try await Self.withDropboxRemote { sandbox, _ in
            let token = try #require(
                try await sandbox.stratus("changes", "box", "--json").json()["next_token"] as? String)
            let file = try sandbox.write("x", to: "x.txt")
            #expect(try await sandbox.stratus("put", file.path, "box:new.txt").status == 0)
            let page = try await sandbox.stratus("changes", "box", "--since", token, "--json").json()
            let changes = try #require(page["changes"] as? [[String: Any]])
            #expect(changes.contains { $0["kind"] as? String == "upserted" && $0["path"] as? String == "new.txt" })
            #expect(page["next_token"] as? String != token)
        }
    }

    @Test func aRefusedTokenSaysToSignIn() async throws {
        try await Self.withDropboxRemote { sandbox, _ in
            let refused = try await sandbox.stratus(
                "ls", "box:", environment: ["STRATUS_REMOTE_BOX_ACCESS_TOKEN": "not-a-valid-token"])
            #expect(refused.status == 4, "\(refused.stderr)")
            #expect(refused.stderr.contains("stratus login box"))
            #expect(!refused.stderr.contains("not-a-valid-token"))
        }
    }

    @Test func aServerThatIsNotThereIsANetworkFailure() async throws {
        // A port that refuses connections (a stopped mock's port could be given to another
        // server of the test process meanwhile).
        try await withRefusingPort { port in
            let stopped = "http://127.0.0.1:\(port)"
            try await CLISandbox.with { sandbox in
                let added = try await sandbox.run(
                    ["remote", "add", "gone", "--type", "dropbox", "--option", "access_token=t"]
                        + ["api_url", "content_url", "notify_url"].flatMap { ["--option", "\($0)=\(stopped)"] })
                #expect(added.status == 0)
                let result = try await sandbox.stratus("stat", "gone:x.txt")
                #expect(result.status == 5, "\(result.stderr)")
                #expect(result.stderr.contains("stratus remote show gone"))
            }
        }
    }
}
