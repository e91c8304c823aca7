import Foundation
import Testing

/// `stratus-save-sync`: the scripted story and the by-hand commands.
@Suite struct SaveSyncTests {
    static let mergedSummary = "1-1 ★★★ 1200 · 1-2 ★★★ 9100 · 1-3 ★★★ 8800 · 1-4 ★★☆ 5000"

    @Test func theDemoOnTheDefaultLocalRemoteDetectsTheConflictAndMerges() async throws {
        try await CLISandbox.with { sandbox in
            let result = try await sandbox.saveSync(["demo", "--work", sandbox.path("demo").path])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("Both sync automatically: nothing in this story calls sync()."))
            #expect(result.stdout.contains("both devices changed the save since they last agreed: merged by its rule"))
            #expect(result.stdout.contains("conflict detected: yes"))
            #expect(
                result.stdout.contains("merged result: \(Self.mergedSummary) — 11 stars; highest level 4, 14 coins"))
            #expect(result.stdout.contains("still restorable as version 2"))
            // The merge is what the remote holds: a record document naming its thumbnail's blob.
            let demos = try FileManager.default.contentsOfDirectory(
                atPath: sandbox.path("demo/cloud/stratus-save-sync-demo").path)
            let run = try #require(demos.first { !$0.hasSuffix("-progress") })
            let stored = try String(
                contentsOf: sandbox.path("demo/cloud/stratus-save-sync-demo/\(run)/records/save/slot-1.json"),
                encoding: .utf8)
            #expect(stored.contains("\"1-4\""))
            #expect(stored.contains("\"thumbnail\""))
        }
    }

    @Test func theDemoRunsAgainstDropboxByChangingTheType() async throws {
        try await DropboxMock.withRunning { mock in
            try await CLISandbox.with { sandbox in
                let result = try await sandbox.saveSync(
                    ["demo", "--type", "dropbox"] + mock.hostOptions,
                    environment: ["STRATUS_REMOTE_SAVE_SYNC_ACCESS_TOKEN": mock.accessToken]
                )
                #expect(result.status == 0, "\(result.stderr)")
                #expect(result.stdout.contains("a 'dropbox' remote"))
                #expect(result.stdout.contains("conflict detected: yes"))
                #expect(result.stdout.contains(Self.mergedSummary))
            }
        }
    }

    @Test func devicesSyncByHandThroughAConfiguredRemote() async throws {
        try await CLISandbox.with { sandbox in
            let added = try await sandbox.stratus(
                "remote", "add", "saves", "--type", "local", "--option", "root=\(sandbox.path("cloud").path)")
            #expect(added.status == 0)
            let a = sandbox.path("A").path
            let b = sandbox.path("B").path
            func run(_ arguments: String...) async throws -> CLIResult {
                let result = try await sandbox.saveSync(arguments)
                #expect(result.status == 0, "\(arguments): \(result.stderr)")
                return result
            }
            _ = try await run(
                "play", "--device", a, "--level", "1-1", "--stars", "2", "--score", "100", "--remote", "saves")
            _ = try await run("sync", "--device", a, "--remote", "saves")
            #expect(try await run("sync", "--device", b, "--remote", "saves").stdout.contains("pulled 1"))
            _ = try await run(
                "play", "--device", a, "--level", "1-2", "--stars", "3", "--score", "300", "--remote", "saves")
            _ = try await run(
                "play", "--device", b, "--level", "1-1", "--stars", "3", "--score", "50", "--remote", "saves")
            _ = try await run("sync", "--device", b, "--remote", "saves")
            #expect(try await run("status", "--device", a, "--remote", "saves").stdout.contains("new progress to push"))

            let merge = try await run("sync", "--device", a, "--remote", "saves")
            #expect(merge.stdout.contains("conflicts merged 1"))
            #expect(merge.stdout.contains("save: 1-1 ★★★ 100 · 1-2 ★★★ 300"))
            _ = try await run("sync", "--device", b, "--remote", "saves")
            #expect(try await run("status", "--device", b, "--remote", "saves").stdout.contains("state: in sync"))
        }
    }

    /// A script that drives `live` through pipes reads each line as it is printed, not all of
    /// them when the process exits (issue 39: standard output was block-buffered on a pipe).
    @Test func liveShowsItsFirstLineOnAPipeWhileItRuns() async throws {
        try await CLISandbox.with { sandbox in
            let process = try sandbox.startSaveSync([
                "live", "--device", sandbox.path("A").path, "--type", "local", "--option",
                "root=\(sandbox.path("cloud").path)",
            ])
            defer { process.terminate() }
            // A safety bound for a busy machine: the line comes as soon as the device is open.
            let printed = try await process.waitFor(seconds: 120) { stdout, _ in stdout.contains("\n") }
            let wasRunning = process.isRunning
            #expect(printed, "nothing on the pipe after 120 s; stderr: \(process.stderr)")
            #expect(wasRunning, "the first line came only when the process exited")
            #expect(process.stdout.hasPrefix("Device "), "\(process.stdout)")
            process.closeInput()
            let result = try await process.finish()
            #expect(result.status == 0, "\(result.stderr)")
        }
    }

    @Test func aBadRemoteChoiceIsAClearError() async throws {
        try await CLISandbox.with { sandbox in
            let noFile = try await sandbox.saveSync(["sync", "--device", sandbox.path("A").path, "--remote", "nope"])
            #expect(noFile.status == 1)
            #expect(noFile.stderr.contains("\(sandbox.configFile.path) does not exist"))

            _ = try await sandbox.stratus(
                "remote", "add", "saves", "--type", "local", "--option", "root=\(sandbox.path("cloud").path)")
            let unknown = try await sandbox.saveSync(["sync", "--device", sandbox.path("A").path, "--remote", "nope"])
            #expect(unknown.status == 1)
            #expect(unknown.stderr.contains("There is no remote named 'nope'; configured remotes: saves"))
            let badOption = try await sandbox.saveSync(["demo", "--type", "local", "--option", "rot=/tmp"])
            #expect(badOption.status == 1)
            #expect(badOption.stderr.contains("the valid options are chunk_size, max_versions, root"))
        }
    }
}
