import Foundation
import Stratus
import SyncSimulation
import Testing

@testable import StratusSync

/// The safety rails of issue 25: a remote folder that was deleted, emptied or swapped stops a
/// device instead of deleting its data; documents that vanish in bulk stop a pull; a device back
/// after many changes by others rolls nothing back; a newer format is refused; and the two ways
/// out (seed again, adopt) converge without losing anything.
@Suite struct SafetyRailTests {
    static let marker = "stratus-sync/store.json"

    /// Saves `count` records (`slot-0`…) on a device, each with a small file.
    private func seed(_ store: SyncStore, _ harness: SyncHarness, count: Int, prefix: String = "slot") throws {
        for index in 0..<count {
            try store.save(
                Save(level: index), as: key("\(prefix)-\(index)"),
                files: ["state": harness.file("s", "\(prefix) \(index)")])
        }
    }

    /// Every live record of a device: id → level.
    private func levels(_ store: SyncStore) throws -> [String: Int] {
        var result: [String: Int] = [:]
        for record in try store.records(ofType: "save") { result[record.key.id] = try record.decode(Save.self).level }
        return result
    }

    /// Every live record of a device: id → (level, note, the text of its file).
    private func contents(_ store: SyncStore) throws -> [String: String] {
        var result: [String: String] = [:]
        for record in try store.records(ofType: "save") {
            let save = try record.decode(Save.self)
            result[record.key.id] = "\(save.level) \(save.note) \(try text(of: record, "state") ?? "-")"
        }
        return result
    }

    private func markerText(_ service: any Service, _ harness: SyncHarness) async throws -> String {
        let url = harness.folder.appending(path: "inputs/marker-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = try await service.download(RemotePath(Self.marker), to: url)
        return String(decoding: try Data(contentsOf: url), as: UTF8.self)
    }

    @Test(
        arguments: [
            (nil, nil, SafetyRailDecisions.Identity.writeMarker),
            (nil, "s1", .adopt("s1")),
            ("s1", "s1", .proceed),
            ("s1", nil, .stop(remembered: "s1", found: nil)),
            ("s1", "s2", .stop(remembered: "s1", found: "s2")),
        ] as [(String?, String?, SafetyRailDecisions.Identity)])
    func theIdentityDecision(_ remembered: String?, _ found: String?, _ expected: SafetyRailDecisions.Identity) {
        #expect(SafetyRailDecisions.identity(remembered: remembered, found: found) == expected)
    }

    @Test(arguments: [
        (0, 0, false), (5, 5, false), (6, 6, true), (6, 12, false), (7, 12, true), (18, 20, true),
        (100, 1_000, false), (501, 1_000, true),
    ])
    func theMassDeletionDecision(_ removed: Int, _ live: Int, _ expected: Bool) {
        #expect(SafetyRailDecisions.isMassDeletion(removed: removed, live: live, limit: 0.5, minimum: 5) == expected)
        #expect(!SafetyRailDecisions.isMassDeletion(removed: removed, live: live, limit: 1, minimum: 5))
    }

    @Test func twoFirstSyncsAtOnceAgreeOnOneMarker() async throws {
        let harness = try SyncHarness()
        defer { harness.remove() }
        let a = try harness.device("a")
        let b = try harness.device("b")
        try seed(a, harness, count: 3, prefix: "a")
        try seed(b, harness, count: 3, prefix: "b")
        async let first = a.sync()
        async let second = b.sync()
        _ = try await (first, second)
        try await a.sync()
        try await b.sync()
        try await a.sync()
        #expect(try levels(a).count == 6)
        #expect(try contents(a) == contents(b))
    }

    @Test func theFirstSyncWritesTheMarkerAndLaterSyncsCheckItWithOneRequest() async throws {
        let harness = try SyncHarness()
        defer { harness.remove() }
        let a = try harness.device("a")
        let b = try harness.device("b")
        try await a.sync()
        let text = try await markerText(harness.remote, harness)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["format"] as? Int == 1)
        #expect(object["minimumWriterFormat"] as? Int == 1)
        #expect((object["store"] as? String)?.isEmpty == false)
        #expect(object["created"] is String)

        // A second device adopts the marker; neither writes it again.
        try seed(b, harness, count: 2)
        try await b.sync()
        try await a.sync()
        #expect(try await markerText(harness.remote, harness) == text)
        #expect(try levels(a) == ["slot-0": 0, "slot-1": 1])

        // Nothing changed: the marker costs one metadata request, no download.
        harness.remote.resetCounts()
        try await a.sync()
        #expect(harness.remote.counts["metadata", default: 0] == 1, "\(harness.remote.counts)")
        #expect(harness.remote.counts["download", default: 0] == 0, "\(harness.remote.counts)")
        #expect(harness.remote.counts["upload", default: 0] == 0, "\(harness.remote.counts)")
    }

    @Test func aRemoteWrittenBeforeMarkersGetsOneWithoutLosingAnything() async throws {
        let harness = try SyncHarness()
        defer { harness.remove() }
        let a = try harness.device("a")
        let b = try harness.device("b")
        try seed(a, harness, count: 8)
        try await a.sync()
        try await b.sync()
        // As if an older library had written the folder: records, no marker, and devices that
        // never remembered a store id.
        #expect(try await harness.removeRemoteFiles(below: "stratus-sync") { $0.string == Self.marker } == 1)
        let c = try harness.device("c")
        try await c.sync()
        #expect(try levels(c).count == 8)
        _ = try await markerText(harness.remote, harness)
    }

    @Test func aDeletedRemoteFolderStopsEveryDeviceUntilOneSeedsItAgainAndTheOthersAdopt() async throws {
        let harness = try SyncHarness()
        defer { harness.remove() }
        let a = try harness.device("a")
        let b = try harness.device("b")
        try seed(a, harness, count: 10)
        try await a.sync()
        try await b.sync()
        let before = try contents(a)
        #expect(try contents(b) == before)

        // B changes a record it has not pushed yet; then the whole folder goes.
        try b.save(Save(level: 100, note: "b offline"), as: key("slot-3"))
        let removed = try await harness.removeRemoteFiles(below: "stratus-sync")
        #expect(removed > 10)

        for store in [b, a] {
            let error = await expectSyncError(.remoteReplaced) { try await store.sync() }
            #expect(error?.message.contains("reseedRemote()") == true)
            #expect(error?.message.contains("adoptRemote()") == true)
        }
        // Nothing was applied or written: both keep every record, nothing is archived, and the
        // remote stays empty.
        #expect(try contents(a) == before)
        #expect(try levels(b)["slot-3"] == 100)
        #expect(try levels(b).count == 10)
        #expect(try a.archived(key("slot-0")).isEmpty)
        #expect(try await harness.remote.list(RemotePath("stratus-sync")).isEmpty)

        // A seeds the remote again: every record goes up with its files.
        try await a.reseedRemote()
        let seeded = try await a.sync()
        #expect(seeded.pushed.count == 10)
        #expect(seeded.isClean)

        // B finds a new store: it stops again, then adopts it.
        await expectSyncError(.remoteReplaced) { try await b.sync() }
        try await b.adoptRemote()
        #expect(try b.records(ofType: "save").isEmpty)
        let adopted = try await b.sync()
        #expect(adopted.isClean)
        #expect(try contents(b) == before)
        // B's unpushed change is in its archive, with every record it had.
        let archived = try b.archived(key("slot-3"))
        #expect(try archived.map { try $0.decode(Save.self).note } == ["b offline"])
        #expect(try b.archived(key("slot-0")).count == 1)

        // Both devices sync on as usual.
        try b.save(Save(level: 3, note: "again"), as: key("slot-3"))
        try await b.sync()
        try await a.sync()
        #expect(try levels(a)["slot-3"] == 3)
        #expect(try contents(a) == contents(b))
    }

    /// The same rail on every backend the tests can reach: their file ids and versions differ,
    /// and Drive's conditional writes are best-effort.
    @Test(arguments: SimulationRemote.available)
    func aDeletedRemoteFolderStopsOnEveryBackend(_ kind: SimulationRemote) async throws {
        try await SyncHarness.with(kind) { harness in
            let a = try harness.device("a")
            let b = try harness.device("b")
            try seed(a, harness, count: 6)
            try await a.sync()
            try await b.sync()
            let before = try contents(b)
            harness.remote.resetCounts()
            try await b.sync()
            #expect(harness.remote.counts["download", default: 0] == 0, "an unchanged marker is not downloaded")
            try await harness.removeRemoteFiles(below: "stratus-sync")
            await expectSyncError(.remoteReplaced) { try await b.sync() }
            #expect(try contents(b) == before)
            try await a.reseedRemote()
            #expect(try await a.sync().isClean)
            await expectSyncError(.remoteReplaced) { try await b.sync() }
            try await b.adoptRemote()
            #expect(try await b.sync().isClean)
            #expect(try contents(b) == before)
        }
    }

    @Test func aRemoteSwitchedToAnotherEmptyFolderStopsAndWritesNothing() async throws {
        let harness = try SyncHarness()
        defer { harness.remove() }
        let before = try await { () async throws -> [String: String] in
            let a = try harness.device("a")
            try seed(a, harness, count: 10)
            try await a.sync()
            return try contents(a)
        }()

        // The app now points at another folder (another account): an empty remote. (The device
        // is opened again on the same store folder, after the first store is gone.)
        let other = try harness.otherRemote("other-remote")
        let switched = try harness.device("a", service: other)
        try switched.save(Save(level: 42, note: "after the switch"), as: key("slot-0"))
        await expectSyncError(.remoteReplaced) { try await switched.sync() }
        #expect(other.counts["upload", default: 0] == 0)
        #expect(try levels(switched)["slot-0"] == 42)
        #expect(try levels(switched).count == 10)

        // Seeding the new folder from this device puts every record there, files included.
        try await switched.reseedRemote()
        #expect(try await switched.sync().pushed.count == 10)
        let c = try harness.device("c", service: other)
        try await c.sync()
        var expected = before
        expected["slot-0"] = "42 after the switch slot 0"
        #expect(try contents(c) == expected)

        // Back on the first remote, the store id differs again: the way out is to adopt it.
        let back = try harness.device("a")
        await expectSyncError(.remoteReplaced) { try await back.sync() }
        try await back.adoptRemote()
        try await back.sync()
        #expect(try contents(back) == before)
        #expect(try back.archived(key("slot-0")).map { try $0.decode(Save.self).level } == [42])
    }

    @Test func aDeviceWithUnsyncedRecordsJoinsAnotherStoreBySeedingWithConflictsNotOverwrites() async throws {
        let harness = try SyncHarness()
        defer { harness.remove() }
        let a = try harness.device("a")
        try seed(a, harness, count: 4)
        try await a.sync()

        // B synced with another folder, then is pointed at A's: another store id.
        try await {
            let b = try harness.device("b", service: harness.otherRemote("other-remote"))
            try b.save(Save(level: 10, note: "b"), as: key("slot-0"))  // differs from A's slot-0
            try b.save(Save(level: 1), as: key("slot-1"), files: ["state": harness.file("s", "slot 1")])  // as A's
            try b.save(Save(level: 77, note: "only b"), as: key("slot-b"))
            try await b.sync()
        }()
        let joined = try harness.device("b")
        await expectSyncError(.remoteReplaced) { try await joined.sync() }
        try await joined.reseedRemote()
        let report = try await joined.sync()
        // slot-0 differs: a conflict, not an overwrite; slot-1 says the same; slot-b is new.
        #expect(report.conflicts == [try key("slot-0")])
        try await a.sync()
        #expect(try levels(a)["slot-0"] == 0)
        #expect(try levels(a)["slot-b"] == 77)
        #expect(try levels(joined).count == 5)
        #expect(try joined.conflicts().first?.local.decode(Save.self).level == 10)
        #expect(try joined.conflicts().first?.remote.decode(Save.self).level == 0)
    }

    @Test func ninetyPercentOfTheDocumentsRemovedByHandStopThePull() async throws {
        let harness = try SyncHarness()
        defer { harness.remove() }
        let a = try harness.device("a")
        let b = try harness.device("b")
        try seed(a, harness, count: 20)
        try await a.sync()
        try await b.sync()
        let before = try contents(b)

        let removed = try await harness.removeRemoteFiles(below: "stratus-sync/records") { path in
            guard let index = Int(path.name.dropFirst("slot-".count).dropLast(".json".count)) else { return false }
            return index >= 2
        }
        #expect(removed == 18)
        for store in [b, a] {
            let error = await expectSyncError(.massDeletion) { try await store.sync() }
            #expect(error?.recordCount == 18)
            #expect(error?.message.contains("acceptRemoteDeletions()") == true)
            #expect(try contents(store) == before)
        }
        // Still stopped on the next sync: nothing was applied in between.
        await expectSyncError(.massDeletion) { try await b.sync() }
        #expect(try contents(b) == before)

        // B accepts once: the records go to the archive; the next mass removal stops again.
        try b.acceptRemoteDeletions()
        let accepted = try await b.sync()
        #expect(accepted.failures.isEmpty)
        #expect(try levels(b) == ["slot-0": 0, "slot-1": 1])
        #expect(try b.archived(key("slot-7")).map { try $0.decode(Save.self).level } == [7])
        try await b.sync()

        // A seeds them back instead; B receives them again. Both converge on all 20.
        try await a.reseedRemote()
        let reseeded = try await a.sync()
        #expect(reseeded.isClean)
        try await b.sync()
        #expect(try contents(b) == before)
        #expect(try contents(a) == before)
    }

    /// Device C syncs and goes offline; A and B make 1,000 changes (edits, deletes and
    /// re-creates); C, offline, edits and deletes some of the same records, and edits others
    /// nobody touched; then C syncs. Nothing A and B wrote is rolled back, C's stale tombstones
    /// neither delete nor resurrect anything, and C's offline edits are kept: in conflicts
    /// (`.manual`), in the archive where the newer side won (`.newest`), or pushed where nobody
    /// else changed the record.
    @Test(arguments: ["manual", "newest"])
    func aDeviceBackAfterAThousandChangesByOthersRollsNothingBack(_ policyName: String) async throws {
        let harness = try SyncHarness()
        defer { harness.remove() }
        let policies: [String: ConflictPolicy] = ["save": policyName == "newest" ? .newest : .manual]
        let a = try harness.device("a", policies: policies)
        let b = try harness.device("b", policies: policies)
        let c = try harness.device("c", policies: policies)
        for index in 0..<50 { try a.save(Save(level: 0), as: key("r-\(index)")) }
        try await a.sync()
        try await b.sync()
        try await c.sync()

        // C, offline: edits r-0…4, deletes r-5…9 (A and B change all of them later), and edits
        // r-45…49, which nobody else touches.
        for index in 0..<5 { try c.save(Save(level: -1, note: "c offline"), as: key("r-\(index)")) }
        for index in 5..<10 { try c.delete(key("r-\(index)")) }
        for index in 45..<50 { try c.save(Save(level: -1, note: "c only"), as: key("r-\(index)")) }

        // A and B: 1,000 changes to r-0…39 in 25 rounds, A on the even records and B on the odd
        // ones (so they do not conflict with each other), each syncing after its changes.
        var changes = 0
        for round in 0..<25 {
            for (device, name, parity) in [(a, "a", 0), (b, "b", 1)] {
                for index in stride(from: parity, to: 40, by: 2) {
                    let record = try key("r-\(index)")
                    if try device.record(record) != nil, (round + index) % 7 == 0 {
                        try device.delete(record)
                    } else {
                        try device.save(Save(level: round * 100 + index, note: name), as: record)  // or re-create
                    }
                    changes += 1
                }
                let report = try await device.sync()
                #expect(report.isClean, "\(report)")
            }
        }
        #expect(changes == 1_000)
        try await a.sync()
        let others = try contents(a)
        #expect(try contents(b) == others)
        #expect(others["r-4"] == nil, "r-4 ends deleted by B")
        #expect(others["r-5"] != nil, "r-5 ends alive")

        let report = try await c.sync()
        #expect(report.failures.isEmpty, "\(report.failures)")
        try await a.sync()
        try await b.sync()
        try await a.sync()
        // Nothing of A's and B's is rolled back; C's edits of untouched records arrive.
        var expected = others
        for index in 45..<50 { expected["r-\(index)"] = "-1 c only -" }
        #expect(try contents(a) == expected)
        #expect(try contents(b) == expected)

        let touched = try (0..<10).map { try key("r-\($0)") }
        if policyName == "manual" {
            // Every record both sides changed is a conflict; C's side waits in it.
            #expect(report.conflicts == touched)
            for conflict in try c.conflicts() {
                let index = Int(conflict.key.id.dropFirst(2)) ?? -1
                if index < 5 {
                    #expect(try conflict.local.decode(Save.self).note == "c offline")
                } else {
                    #expect(conflict.local.isDeleted)
                }
                #expect(conflict.remote.isDeleted == (expected[conflict.key.id] == nil))
            }
            let untouched = try contents(c).filter { Int($0.key.dropFirst(2)) ?? 0 >= 10 }
            #expect(untouched == expected.filter { Int($0.key.dropFirst(2)) ?? 0 >= 10 })
        } else {
            // The newer side wins everywhere: C holds what A and B have, and its own older
            // edits are in its archive.
            #expect(report.conflicts.isEmpty)
            #expect(try contents(c) == expected)
            for index in 0..<5 {
                #expect(try c.archived(key("r-\(index)")).map { try $0.decode(Save.self).note } == ["c offline"])
            }
            for index in 5..<10 {
                #expect(try c.archived(key("r-\(index)")).map(\.isDeleted) == [true])
            }
        }
    }

    @Test func aServiceWithoutAFeedStopsTheSameWayOnAFullListing() async throws {
        let harness = try SyncHarness()
        defer { harness.remove() }
        let listed = ScriptedService(harness.remote, withoutFeed: true)
        let a = try harness.device("a", service: listed)
        let b = try harness.device("b", service: listed)
        try seed(a, harness, count: 10)
        try await a.sync()
        try await b.sync()
        let removed = try await harness.removeRemoteFiles(below: "stratus-sync/records") {
            !$0.name.hasPrefix("slot-0")
        }
        #expect(removed == 9)
        let error = await expectSyncError(.massDeletion) { try await b.sync() }
        #expect(error?.recordCount == 9)
        #expect(try levels(b).count == 10)
        try b.acceptRemoteDeletions()
        #expect(try await b.sync().usedFullListing)
        #expect(try levels(b) == ["slot-0": 0])
        // The whole folder gone, marker included, is the remote-identity error instead.
        try await harness.removeRemoteFiles(below: "stratus-sync")
        await expectSyncError(.remoteReplaced) { try await a.sync() }
        #expect(try levels(a).count == 10)
    }

    @Test func deletesByDevicesAndSmallRemovalsByHandGoThrough() async throws {
        let harness = try SyncHarness()
        defer { harness.remove() }
        let a = try harness.device("a")
        let b = try harness.device("b")
        try seed(a, harness, count: 20)
        try await a.sync()
        try await b.sync()
        // Tombstones for 18 of 20 records: deletes made on purpose go through.
        for index in 2..<20 { try a.delete(key("slot-\(index)")) }
        try await a.sync()
        #expect(try await b.sync().failures.isEmpty)
        #expect(try levels(b) == ["slot-0": 0, "slot-1": 1])

        // A small store: removing its few documents by hand is below the minimum.
        try seed(a, harness, count: 3, prefix: "few")
        try await a.sync()
        try await b.sync()
        let removed = try await harness.removeRemoteFiles(below: "stratus-sync/records") { $0.name.hasPrefix("few-") }
        #expect(removed == 3)
        #expect(try await b.sync().failures.isEmpty)
        #expect(try levels(b) == ["slot-0": 0, "slot-1": 1])
        #expect(try b.archived(key("few-2", type: "save")).count == 1)
    }

    @Test func aRemoteOfANewerFormatIsRefusedAndNothingIsWritten() async throws {
        for marker in [
            #"{"created":"2030-01-01T00:00:00Z","format":2,"minimumWriterFormat":2,"store":"future"}"#,
            #"{"created":"2030-01-01T00:00:00Z","format":1,"minimumWriterFormat":2,"store":"future"}"#,
            #"{"created":"2030-01-01T00:00:00Z","format":3,"store":"future","somethingNew":true}"#,
        ] {
            let harness = try SyncHarness()
            defer { harness.remove() }
            _ = try await harness.remote.upload(from: .bytes(Data(marker.utf8)), to: RemotePath(Self.marker))
            let a = try harness.device("a")
            try seed(a, harness, count: 2)
            harness.remote.resetCounts()
            let error = await expectSyncError(.unsupportedFormat) { try await a.sync() }
            #expect(error?.message.contains("Update the app") == true)
            await expectSyncError(.unsupportedFormat) { try await a.reseedRemote() }
            await expectSyncError(.unsupportedFormat) { try await a.adoptRemote() }
            #expect(harness.remote.counts["upload", default: 0] == 0)
            #expect(harness.remote.counts["delete", default: 0] == 0)
            #expect(try levels(a).count == 2)
            #expect(try await harness.remote.list(RemotePath("stratus-sync")).map(\.path.string) == [Self.marker])
        }

        // A device that synced before finds its store upgraded by a newer app.
        let harness = try SyncHarness()
        defer { harness.remove() }
        let a = try harness.device("a")
        try seed(a, harness, count: 2)
        try await a.sync()
        let current = try await markerText(harness.remote, harness)
        let upgraded = current.replacingOccurrences(of: #""format":1"#, with: #""format":2"#)
        #expect(upgraded != current)
        _ = try await harness.remote.upload(from: .bytes(Data(upgraded.utf8)), to: RemotePath(Self.marker))
        try a.save(Save(level: 9), as: key("slot-0"))
        harness.remote.resetCounts()
        await expectSyncError(.unsupportedFormat) { try await a.sync() }
        #expect(harness.remote.counts["upload", default: 0] == 0)
    }

    @Test func anUnreadableMarkerStopsTheSyncAndSeedingAgainReplacesIt() async throws {
        let harness = try SyncHarness()
        defer { harness.remove() }
        let a = try harness.device("a")
        try seed(a, harness, count: 2)
        try await a.sync()
        _ = try await harness.remote.upload(from: .bytes(Data("not json".utf8)), to: RemotePath(Self.marker))
        let error = await expectSyncError(.invalidDocument) { try await a.sync() }
        #expect(error?.message.contains("reseedRemote()") == true)
        try await a.reseedRemote()
        #expect(try await a.sync().isClean)
        let b = try harness.device("b")
        try await b.sync()
        #expect(try levels(b) == levels(a))
    }
}
