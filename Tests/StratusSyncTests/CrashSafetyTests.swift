import Foundation
import Stratus
import StratusFileSystem
import StratusLocal
import StratusSync
import Testing

/// A real child process (`stratus-sync-sim crash-child`) syncs and kills itself with SIGKILL at
/// each named point; a fresh store on the same folder then syncs, and nothing is lost.
@Suite struct CrashSafetyTests {
    /// Three files, one of 3 MiB so that a download is seen halfway.
    private func saveRecord(_ store: SyncStore, _ harness: SyncHarness) throws -> RecordKey {
        let slot = try key("slot-1")
        let big = harness.folder.appending(path: "big.bin")
        try Data((0..<(3 * 1_048_576)).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: big)
        try store.save(
            Save(level: 13), as: slot,
            files: ["state": big, "thumbnail": harness.file("t", "PIC"), "notes": harness.file("n", "NOTES")])
        return slot
    }

    private func runChild(_ harness: SyncHarness, device: String, at point: String, automatic: Bool = false)
        async throws -> (termination: ChildProcess.Termination, output: String)
    {
        let log = harness.folder.appending(path: "child-\(point).log")
        let child = try ChildProcess(
            try Executables.url(of: "stratus-sync-sim").path,
            [
                "crash-child", "--store", harness.folder.appending(path: "devices/\(device)").path,
                "--remote", harness.folder.appending(path: "remote").path, "--device", device, "--at", point,
            ] + (automatic ? ["--automatic"] : []),
            output: .file(log.path), error: .file(log.path))
        let termination = await child.wait()
        return (termination, (try? String(contentsOf: log, encoding: .utf8)) ?? "")
    }

    /// Each point, killed inside one `sync()` call and inside a running automatic sync.
    @Test(arguments: ["blobs-uploaded", "document-committed"], [false, true])
    func aPushKilledAtAnyPointConverges(_ point: String, automatic: Bool) async throws {
        let harness = try SyncHarness()
        defer { harness.remove() }
        let slot: RecordKey
        do {
            let a = try harness.device("a")
            slot = try saveRecord(a, harness)
        }
        let child = try await runChild(harness, device: "a", at: point, automatic: automatic)
        #expect(
            child.termination == .signalled(SIGKILL),
            "the child was to die at \(point): \(child.output)")

        let a = try harness.device("a")
        #expect(try a.pendingChangeCount() == 1, "the local edit survived the kill")
        let report = try await a.sync()
        #expect(report.isClean, "\(report.failures)")
        #expect(try a.pendingChangeCount() == 0)
        #expect(try await a.versions(of: slot).count == 1, "the record was committed once, with no conflict")

        let b = try harness.device("b")
        try await b.sync()
        let record = try #require(try b.record(slot))
        #expect(record.files.count == 3)
        #expect(record.files["state"]?.size == Int64(3 * 1_048_576))
        #expect(try text(of: record, "notes") == "NOTES")
    }

    @Test(arguments: ["blob-downloading", "document-fetched", "local-commit"], [false, true])
    func aPullKilledAtAnyPointConverges(_ point: String, automatic: Bool) async throws {
        let harness = try SyncHarness()
        defer { harness.remove() }
        let a = try harness.device("a")
        let slot = try saveRecord(a, harness)
        try await a.sync()

        let child = try await runChild(harness, device: "b", at: point, automatic: automatic)
        #expect(
            child.termination == .signalled(SIGKILL),
            "the child was to die at \(point): \(child.output)")

        let b = try harness.device("b")
        if point != "blob-downloading" {
            // Killed before or inside the local transaction: nothing was applied.
            #expect(try b.record(slot) == nil)
        }
        let report = try await b.sync()
        #expect(report.isClean, "\(report.failures)")
        #expect(report.pulled == [slot])
        let record = try #require(try b.record(slot))
        #expect(try record.decode(Save.self).level == 13)
        for file in record.files.values {
            let data = try Data(contentsOf: file.url)
            #expect(Int64(data.count) == file.size)
        }
        let staging = harness.folder.appending(path: "devices/b/staging")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: staging.path).isEmpty, "no half-written file is left")
    }
}

/// Finds a built executable next to the test bundle.
enum Executables {
    static func url(of name: String) throws -> URL {
        var candidates: [URL] = Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }.map {
            $0.bundleURL.deletingLastPathComponent()
        }
        candidates.append(Bundle.main.bundleURL)
        if let first = CommandLine.arguments.first {
            candidates.append(URL(filePath: first).deletingLastPathComponent())
        }
        for folder in candidates {
            let url = folder.appending(path: name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        throw SyncError(
            .notFound,
            "The built \(name) is not next to the tests; build it with `swift build --build-tests --traits Development`."
        )
    }
}
