import Foundation
import Testing

/// `put`, `get`, `ls`, `stat`, `rm`, `versions`, `restore` and `changes` against a `local` remote.
@Suite struct LocalFileCommandTests {
    /// A sandbox with a `local` remote named `s`.
    static func withLocalRemote<Result: Sendable>(_ body: (CLISandbox) async throws -> Result) async throws -> Result {
        try await CLISandbox.with { sandbox in
            let added = try await sandbox.stratus(
                "remote", "add", "s", "--type", "local", "--option", "root=\(sandbox.path("cloud").path)")
            #expect(added.status == 0, "\(added.stderr)")
            return try await body(sandbox)
        }
    }

    @Test func putAndGetRoundTripTheContent() async throws {
        try await Self.withLocalRemote { sandbox in
            let original = try sandbox.write("{\"level\": 7, \"coins\": 1234}\n", to: "slot-1.json")
            let put = try await sandbox.stratus("put", original.path, "s:saves/slot-1.json", "--json")
            #expect(put.status == 0, "\(put.stderr)")
            let written = try #require(try put.json()["file"] as? [String: Any])
            #expect(written["path"] as? String == "saves/slot-1.json")
            #expect(written["size"] as? Int == 28)
            #expect((written["content_hash"] as? String)?.hasPrefix("sha256:") == true)
            #expect(put.stderr.isEmpty, "no progress bar when standard error is not a terminal")

            let copy = sandbox.path("copy.json")
            let get = try await sandbox.stratus("get", "s:saves/slot-1.json", copy.path, "--json")
            #expect(get.status == 0, "\(get.stderr)")
            #expect(try Data(contentsOf: copy) == Data(contentsOf: original))
            #expect(try get.json()["local"] as? String == copy.path)

            // A folder destination keeps the name, on both sides.
            #expect(try await sandbox.stratus("put", original.path, "s:other/").status == 0)
            let folder = sandbox.path("downloads")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            #expect(try await sandbox.stratus("get", "s:other/slot-1.json", folder.path).status == 0)
            #expect(try Data(contentsOf: folder.appending(path: "slot-1.json")) == Data(contentsOf: original))
        }
    }

    @Test func listDescribeAndDelete() async throws {
        try await Self.withLocalRemote { sandbox in
            let file = try sandbox.write("abc", to: "a.txt")
            for path in ["s:one.txt", "s:dir/two.txt", "s:dir/deeper/three.txt"] {
                #expect(try await sandbox.stratus("put", file.path, path).status == 0)
            }
            let all = try #require(try await sandbox.stratus("ls", "s:", "--json").json()["files"] as? [[String: Any]])
            #expect(all.compactMap { $0["path"] as? String } == ["dir/deeper/three.txt", "dir/two.txt", "one.txt"])
            let below = try await sandbox.stratus("ls", "s:dir")
            #expect(below.stdout.split(separator: "\n").count == 2)

            let stat = try await sandbox.stratus("stat", "s:dir/two.txt", "--json")
            let described = try #require(try stat.json()["file"] as? [String: Any])
            #expect(described["size"] as? Int == 3)
            #expect(described["version"] as? String != nil)

            let removed = try await sandbox.stratus("rm", "s:dir/two.txt")
            #expect(removed.status == 0)
            let gone = try await sandbox.stratus("stat", "s:dir/two.txt")
            #expect(gone.status == 2)
            #expect(gone.stderr.contains("stratus ls s:"))
            #expect(try await sandbox.stratus("rm", "s:dir/two.txt").status == 2)
        }
    }

    @Test func versionsCanBeListedDownloadedAndRestored() async throws {
        try await Self.withLocalRemote { sandbox in
            let first = try sandbox.write("first", to: "v1.txt")
            let second = try sandbox.write("second", to: "v2.txt")
            let v1 =
                try #require(
                    try await sandbox.stratus("put", first.path, "s:f.txt", "--json").json()["file"] as? [String: Any])[
                    "version"] as? String
            _ = try await sandbox.stratus("put", second.path, "s:f.txt")

            let history = try #require(
                try await sandbox.stratus("versions", "s:f.txt", "--json").json()["versions"] as? [[String: Any]])
            #expect(history.count == 2)
            #expect(history.first?["current"] as? Bool == true)
            #expect(history.last?["id"] as? String == v1)

            let old = sandbox.path("old.txt")
            #expect(try await sandbox.stratus("get", "s:f.txt", old.path, "--version", try #require(v1)).status == 0)
            #expect(try String(contentsOf: old, encoding: .utf8) == "first")

            let restored = try await sandbox.stratus("restore", "s:f.txt", try #require(v1), "--json")
            #expect(restored.status == 0, "\(restored.stderr)")
            let now = sandbox.path("now.txt")
            #expect(try await sandbox.stratus("get", "s:f.txt", now.path).status == 0)
            #expect(try String(contentsOf: now, encoding: .utf8) == "first")
            let after = try #require(
                try await sandbox.stratus("versions", "s:f.txt", "--json").json()["versions"] as? [[String: Any]])
            #expect(after.count == 3, "history only grows")

            let unknown = try await sandbox.stratus("restore", "s:f.txt", "999")
            #expect(unknown.status == 2)
        }
    }

    @Test func preconditionsRefuseStaleWritesWithTheConflictStatus() async throws {
        try await Self.withLocalRemote { sandbox in
            let mine = try sandbox.write("mine", to: "mine.txt")
            let theirs = try sandbox.write("theirs", to: "theirs.txt")
            let created = try await sandbox.stratus("put", mine.path, "s:save.txt", "--if-absent", "--json")
            #expect(created.status == 0)
            let version = try #require((try created.json()["file"] as? [String: Any])?["version"] as? String)

            let absent = try await sandbox.stratus("put", theirs.path, "s:save.txt", "--if-absent")
            #expect(absent.status == 3)

            #expect(try await sandbox.stratus("put", theirs.path, "s:save.txt", "--if-version", version).status == 0)
            let stale = try await sandbox.stratus("put", mine.path, "s:save.txt", "--if-version", version, "--json")
            #expect(stale.status == 3)
            let error = try #require(try stale.json()["error"] as? [String: Any])
            #expect(error["kind"] as? String == "conflict")
            #expect(error["exit_status"] as? Int == 3)
            #expect((error["next_step"] as? String)?.contains("stratus stat s:save.txt") == true)

            let check = sandbox.path("check.txt")
            _ = try await sandbox.stratus("get", "s:save.txt", check.path)
            #expect(try String(contentsOf: check, encoding: .utf8) == "theirs", "the stale write changed nothing")
        }
    }

    @Test func missingThingsHaveTheirOwnStatuses() async throws {
        try await Self.withLocalRemote { sandbox in
            let missingRemote = try await sandbox.stratus("get", "s:nothing.txt", sandbox.path("x").path, "--json")
            #expect(missingRemote.status == 2)
            #expect(try missingRemote.json()["error"] as? [String: Any] != nil)
            #expect(!FileManager.default.fileExists(atPath: sandbox.path("x").path))

            let missingLocal = try await sandbox.stratus("put", sandbox.path("no-such-file").path, "s:x.txt")
            #expect(missingLocal.status == 7)
            #expect(missingLocal.stderr.contains("no-such-file"))
        }
    }

    @Test func changesSinceATokenAndTheNextToken() async throws {
        try await Self.withLocalRemote { sandbox in
            let start = try await sandbox.stratus("changes", "s", "--json")
            #expect(start.status == 0, "\(start.stderr)")
            let token = try #require(try start.json()["next_token"] as? String)

            let file = try sandbox.write("x", to: "x.txt")
            _ = try await sandbox.stratus("put", file.path, "s:a.txt")
            _ = try await sandbox.stratus("put", file.path, "s:b.txt")
            _ = try await sandbox.stratus("rm", "s:a.txt")

            let page = try await sandbox.stratus("changes", "s", "--since", token, "--json").json()
            let changes = try #require(page["changes"] as? [[String: Any]])
            let kinds = changes.map { "\($0["kind"] as? String ?? "?") \($0["path"] as? String ?? "?")" }
            #expect(kinds.contains("upserted b.txt"))
            #expect(kinds.last == "deleted a.txt")
            let next = try #require(page["next_token"] as? String)

            let none = try await sandbox.stratus("changes", "s", "--since", next)
            #expect(none.status == 0)
            #expect(none.stdout.hasPrefix("next token: "))

            let bad = try await sandbox.stratus("changes", "s", "--since", "not-a-token")
            #expect(bad.status == 9)
            #expect(bad.stderr.contains("stratus changes s"))
        }
    }

    @Test func changesFollowPrintsNewChangesUntilStopped() async throws {
        try await Self.withLocalRemote { sandbox in
            let follower = try sandbox.start(["changes", "s", "--follow", "--interval", "0.1", "--json"])
            defer { follower.terminate() }
            #expect(try await follower.waitFor { stdout, _ in stdout.contains("next_token") })
            let file = try sandbox.write("x", to: "x.txt")
            #expect(try await sandbox.stratus("put", file.path, "s:followed.txt").status == 0)
            #expect(try await follower.waitFor { stdout, _ in stdout.contains("followed.txt") })
            follower.terminate()
            let result = try await follower.finish()
            let lines = result.stdout.split(separator: "\n")
            #expect(lines.count >= 2, "one JSON document per line")
            for line in lines {
                #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil)
            }
        }
    }

    /// `--follow` waits the way the service does (a file-system watch for `local`), not by
    /// sleeping `--interval` between reads: with an hour between reads, a change still shows at
    /// once (issue 39).
    @Test func changesFollowWakesWhenTheServiceReportsAChange() async throws {
        try await Self.withLocalRemote { sandbox in
            let follower = try sandbox.start(["changes", "s", "--follow", "--interval", "3600"])
            defer { follower.terminate() }
            #expect(try await follower.waitFor { stdout, _ in stdout.contains("next token: ") })
            let file = try sandbox.write("x", to: "x.txt")
            #expect(try await sandbox.stratus("put", file.path, "s:woken.txt").status == 0)
            // A safety bound for a busy machine, far below the hour the old loop slept.
            let seen = try await follower.waitFor(seconds: 120) { stdout, _ in stdout.contains("woken.txt") }
            #expect(seen, "stdout: \(follower.stdout) stderr: \(follower.stderr)")
        }
    }
}
