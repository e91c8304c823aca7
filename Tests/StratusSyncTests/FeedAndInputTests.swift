import Foundation
import Stratus
import StratusSync
import SyncSimulation
import Synchronization
import Testing

/// The change feed with its fallback, bad remote documents, observation, coalescing, versions,
/// compaction and best-effort services.
@Suite struct FeedAndInputTests {
    @Test(arguments: SimulationRemote.available)
    func aRejectedTokenFallsBackToAFullListing(_ kind: SimulationRemote) async throws {
        try await SyncHarness.with(kind) { harness in
            let a = try harness.device("a")
            let flaky = ScriptedService(harness.remote)
            let b = try harness.device("b", service: flaky)
            #expect(try await b.sync().usedFullListing, "the first sync lists")
            try a.save(Save(level: 8), as: key("slot-1"))
            try await a.sync()
            #expect(try await b.sync().usedFullListing == false)
            try a.save(Save(level: 9), as: key("slot-1"))
            try a.save(Save(level: 1), as: key("slot-2"))
            try await a.sync()
            flaky.rejectNextToken()
            let report = try await b.sync()
            #expect(report.usedFullListing)
            #expect(Set(report.pulled) == [try key("slot-1"), try key("slot-2")])
            #expect(try b.record(key("slot-1"))?.decode(Save.self).level == 9)
        }
    }

    @Test func aServiceWithoutAFeedSyncsFromListings() async throws {
        let harness = try SyncHarness()
        defer { harness.remove() }
        let service = ScriptedService(harness.remote, withoutFeed: true)
        let a = try harness.device("a", service: service)
        let b = try harness.device("b", service: service)
        try a.save(Save(level: 1), as: key("slot-1"))
        try await a.sync()
        #expect(try await b.sync().pulled == [try key("slot-1")])
        try a.save(Save(level: 2), as: key("slot-1"))
        try await a.sync()
        let report = try await b.sync()
        #expect(report.usedFullListing)
        #expect(report.pulled == [try key("slot-1")])
        #expect(try b.record(key("slot-1"))?.decode(Save.self).level == 2)
        harness.remote.resetCounts()
        #expect(try await b.sync().pulled.isEmpty)
        #expect(harness.remote.counts["download", default: 0] == 0, "an unchanged listing fetches nothing")
    }

    @Test(arguments: SimulationRemote.available)
    func invalidRemoteDocumentsAreQuarantinedPerRecord(_ kind: SimulationRemote) async throws {
        try await SyncHarness.with(kind) { harness in
            let a = try harness.device("a")
            let b = try harness.device("b")
            for id in ["good", "truncated", "future", "mismatch", "missing", "wrong-key"] {
                try a.save(Save(level: 1), as: key(id))
            }
            try await a.sync()
            try await b.sync()
            try b.save(Save(level: 50), as: key("truncated"))  // a local edit that must survive

            func put(_ id: String, _ text: String) async throws {
                _ = try await harness.remote.upload(from: .bytes(Data(text.utf8)), to: harness.documentPath("save", id))
            }
            let hash = String(repeating: "ab", count: 32)
            let common =
                #""edit":"e1","device":"x","modified":"2026-01-01T00:00:00.000Z","deleted":false,"value":{"level":2,"note":""}"#
            try await put("truncated", #"{"format":1,"type":"save","id":"truncated","#)
            try await put("future", #"{"format":2,"type":"save","id":"future",\#(common),"files":{}}"#)
            try await put(
                "mismatch",
                #"{"format":1,"type":"save","id":"mismatch",\#(common),"files":{"state":{"sha256":"\#(hash)","size":3}}}"#
            )
            _ = try await harness.remote.upload(
                from: .bytes(Data("BAD".utf8)), to: RemotePath("stratus-sync/blobs/ab/\(hash)"))
            let other = String(repeating: "cd", count: 32)
            try await put(
                "missing",
                #"{"format":1,"type":"save","id":"missing",\#(common),"files":{"state":{"sha256":"\#(other)","size":3}}}"#
            )
            try await put("wrong-key", #"{"format":1,"type":"save","id":"someone-else",\#(common),"files":{}}"#)
            try a.save(Save(level: 2), as: key("good"))
            try await a.sync()

            let report = try await b.sync()
            #expect(report.pulled == [try key("good")])
            let codes = Dictionary(report.failures.map { failure in (failure.key.id, failure.error.code) }) {
                first, _ in first
            }
            #expect(codes["truncated"] == .invalidDocument)
            #expect(codes["future"] == .unsupportedFormat)
            #expect(codes["mismatch"] == .blobMismatch)
            #expect(codes["missing"] == .missingBlob)
            #expect(codes["wrong-key"] == .invalidDocument)
            #expect(try b.record(key("good"))?.decode(Save.self).level == 2)
            // Local data is untouched: the quarantined records keep their last good value, and the
            // local edit is kept and not pushed over the bad document.
            #expect(try b.record(key("future"))?.decode(Save.self).level == 1)
            #expect(try b.record(key("truncated"))?.decode(Save.self).level == 50)
            #expect(try b.pendingChangeCount() == 1)
            let again = try await b.sync()
            #expect(again.failures.map(\.error.code) == [.quarantined])

            // A valid version clears the quarantine.
            try await put("truncated", #"{"format":1,"type":"save","id":"truncated",\#(common),"files":{}}"#)
            let healed = try await b.sync()
            #expect(healed.conflicts == [try key("truncated")], "the local edit now meets a valid remote side")
        }
    }

    @Test(arguments: SimulationRemote.available)
    func fieldsFromANewerAppAreKept(_ kind: SimulationRemote) async throws {
        try await SyncHarness.with(kind) { harness in
            let b = try harness.device("b")
            let path = try harness.documentPath("save", "slot-1")
            let document =
                #"{"format":1,"type":"save","id":"slot-1","edit":"e1","device":"new-app","modified":"2026-01-01T00:00:00.000Z","deleted":false,"value":{"level":2,"note":"","gems":7},"files":{},"cloudSaveSlot":{"v":3}}"#
            _ = try await harness.remote.upload(from: .bytes(Data(document.utf8)), to: path)
            try await b.sync()
            #expect(try b.record(key("slot-1"))?.value.objectValue?["gems"] == .integer(7))
            try b.save(Save(level: 3), as: key("slot-1"))
            try await b.sync()
            let copy = harness.folder.appending(path: "copy.json")
            _ = try await harness.remote.download(path, to: copy)
            let written = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: copy)).objectValue
            #expect(written?["cloudSaveSlot"] == .object(["v": .integer(3)]))
            #expect(written?["value"]?.objectValue?["level"] == .integer(3))
        }
    }

    @Test(arguments: SimulationRemote.available)
    func observersSeeLocalAndRemoteChanges(_ kind: SimulationRemote) async throws {
        try await SyncHarness.with(kind) { harness in
            let a = try harness.device("a")
            let b = try harness.device("b")
            var changes = b.changes().makeAsyncIterator()
            try b.save(Save(level: 1), as: key("mine"))
            #expect(await changes.next() == RecordChange(key: try key("mine"), kind: .updated, origin: .local))
            try a.save(Save(level: 1), as: key("theirs"))
            try await a.sync()
            try await b.sync()
            #expect(await changes.next() == RecordChange(key: try key("theirs"), kind: .updated, origin: .remote))
            b.close()
            #expect(await changes.next() == nil)
        }
    }

    @Test(arguments: SimulationRemote.available)
    func concurrentSyncsShareOneRun(_ kind: SimulationRemote) async throws {
        try await SyncHarness.with(kind) { harness in
            let a = try harness.device("a")
            try a.save(Save(level: 1), as: key("slot-1"))
            try await a.sync()
            harness.remote.resetCounts()
            async let first = a.sync()
            async let second = a.sync()
            async let third = a.sync()
            async let fourth = a.sync()
            _ = try await (first, second, third, fourth)
            let runs = harness.remote.counts["changes", default: 0]
            #expect(runs >= 1 && runs <= 2, "four calls made \(runs) runs")
            // A save made while a sync runs is pushed by that run or the one a later call waits for.
            try a.save(Save(level: 2), as: key("slot-1"))
            let running = Task { try await a.sync() }
            try a.save(Save(level: 3), as: key("slot-2"))
            let later = try await a.sync()
            let earlier = try await running.value
            #expect((earlier.pushed + later.pushed).contains(try key("slot-2")))
            #expect(try a.pendingChangeCount() == 0)
        }
    }

    @Test(arguments: SimulationRemote.available)
    func restoreBringsBackTheRecordAndBothFiles(_ kind: SimulationRemote) async throws {
        try await SyncHarness.with(kind) { harness in
            let a = try harness.device("a")
            let b = try harness.device("b")
            let slot = try key("slot-1")
            try a.save(
                Save(level: 10), as: slot,
                files: ["state": harness.file("s", "STATE-10"), "thumbnail": harness.file("t", "PIC-10")])
            try await a.sync()
            try a.save(
                Save(level: 11), as: slot,
                files: ["state": harness.file("s", "STATE-11"), "thumbnail": harness.file("t", "PIC-11")])
            try await a.sync()
            try await b.sync()
            let history = try await b.versions(of: slot)
            #expect(try history.map { try $0.record.decode(Save.self).level } == [11, 10])
            let restored = try await b.restore(slot, to: history[1].id)
            #expect(try text(of: restored, "state") == "STATE-10")
            try await b.sync()
            try await a.sync()
            #expect(try a.record(slot)?.decode(Save.self).level == 10)
            #expect(try text(of: a.record(slot), "thumbnail") == "PIC-10")
            #expect(try await a.versions(of: slot).count == 3, "history only grows")
            await expectSyncError(.notFound) { try await a.restore(slot, to: VersionID("999")) }
        }
    }

    @Test(arguments: SimulationRemote.available)
    func compactionRemovesOnlyBlobsNothingNeeds(_ kind: SimulationRemote) async throws {
        try await SyncHarness.with(kind) { harness in
            let a = try harness.device("a")
            let slot = try key("slot-1")
            try a.save(Save(level: 1), as: slot, files: ["state": harness.file("s", "OLD")])
            try await a.sync()
            try a.save(Save(level: 2), as: slot, files: ["state": harness.file("s", "NEW")])
            try await a.sync()
            let stray = "stratus-sync/blobs/00/" + String(repeating: "0", count: 64)
            _ = try await harness.remote.upload(from: .bytes(Data("stray".utf8)), to: RemotePath(stray))

            #expect(try await a.compact().blobsRemoved == 0, "young blobs stay")
            let report = try await a.compact(minimumAge: .zero)
            #expect(report.blobsExamined == 3)
            #expect(report.blobsRemoved == 1, "OLD is still in the history, NEW is current")
            await #expect(throws: ServiceError.self) { try await harness.remote.metadata(of: RemotePath(stray)) }
            let b = try harness.device("b")
            try await b.sync()
            #expect(try text(of: b.record(slot), "state") == "NEW")
            try await b.restore(slot, to: b.versions(of: slot)[1].id)
            #expect(try text(of: b.record(slot), "state") == "OLD")
        }
    }

    @Test func aLostRaceBetweenTwoFirstWritesBecomesAConflict() async throws {
        let harness = try SyncHarness()
        defer { harness.remove() }
        let racy = ScriptedService(harness.remote, checkThenWrite: true)
        let a = try harness.device("a", service: racy)
        let b = try harness.device("b", service: racy)
        // The store marker is written (a conditional write) before the race is set up.
        try await a.sync()
        try await b.sync()
        let slot = try key("slot-1")
        try a.save(Save(level: 13, note: "a"), as: slot)
        try b.save(Save(level: 2, note: "b"), as: slot)
        // a creates the record between b's check that it is absent and b's write.
        let document = try harness.documentPath("save", "slot-1")
        racy.setBetween { path in if path == document { _ = try await a.sync() } }
        let report = try await b.sync()
        #expect(report.conflicts == [slot], "b finds a's first write below its own")
        #expect(try b.conflicts().first?.remote.decode(Save.self).level == 13)
    }

    /// Two devices on a best-effort service that synced one record, then each edited it (a to
    /// 13, b to 2), neither synced yet.
    static func twoEditsOnABestEffortService(_ harness: SyncHarness) async throws
        -> (ScriptedService, SyncStore, SyncStore, RecordKey)
    {
        let racy = ScriptedService(harness.remote, checkThenWrite: true)
        let a = try harness.device("a", service: racy)
        let b = try harness.device("b", service: racy)
        let slot = try key("slot-1")
        try a.save(Save(level: 1), as: slot)
        try await a.sync()
        try await b.sync()
        try a.save(Save(level: 13, note: "a"), as: slot)
        try b.save(Save(level: 2, note: "b"), as: slot)
        return (racy, a, b, slot)
    }

    @Test(arguments: SimulationRemote.available)
    func aLostRaceOnABestEffortServiceBecomesAConflict(_ kind: SimulationRemote) async throws {
        try await SyncHarness.with(kind) { harness in
            let (racy, a, b, slot) = try await Self.twoEditsOnABestEffortService(harness)
            // a's write slips in between b's check and b's write.
            racy.setBetween { _ in _ = try await a.sync() }
            let report = try await b.sync()
            #expect(report.pushed == [slot])
            #expect(report.conflicts == [slot], "b finds a's write below its own in the history")
            let conflict = try #require(try b.conflicts().first)
            #expect(try conflict.remote.decode(Save.self).level == 13)
            #expect(try conflict.local.decode(Save.self).level == 2)
            try b.resolve(slot, with: .keepRemote)
            try await b.sync()
            try await a.sync()
            #expect(try a.record(slot)?.decode(Save.self).level == 13)
            #expect(try b.record(slot)?.decode(Save.self).level == 13)
        }
    }

    /// The same race, with the history refused once when it is first read: the check waits
    /// for the next sync instead of being dropped, and the write that slipped in is not lost.
    @Test func aLostRaceIsSettledWhenTheHistoryCanBeReadAgain() async throws {
        let harness = try SyncHarness()
        defer { harness.remove() }
        let (racy, a, b, slot) = try await Self.twoEditsOnABestEffortService(harness)
        racy.setBetween { _ in
            _ = try await a.sync()
            racy.refuseNextHistory()
        }
        let first = try await b.sync()
        #expect(first.pushed == [slot])
        #expect(first.failures.map(\.key) == [slot], "the history could not be read")
        #expect(first.conflicts.isEmpty)
        let second = try await b.sync()
        #expect(second.conflicts == [slot], "b finds a's write below its own once the history answers")
        #expect(try b.conflicts().first?.remote.decode(Save.self).level == 13)
    }
}

/// A record whose document cannot be fetched is reported once per sync, however many pull
/// rounds the sync makes (a push makes a second one).
@Suite struct FailureReportTests {
    @Test func aRecordThatFailsTwiceInOneSyncIsReportedOnce() async throws {
        let harness = try SyncHarness()
        defer { harness.remove() }
        let a = try harness.device("a")
        let scripted = ScriptedService(harness.remote)
        let b = try harness.device("b", service: scripted)
        try await b.sync()
        try a.save(Save(level: 1), as: key("unreachable"))
        try await a.sync()
        scripted.failDownloads(of: try harness.documentPath("save", "unreachable"))
        try b.save(Save(level: 2), as: key("local"))  // a push, so the sync pulls a second time

        let report = try await b.sync()

        #expect(report.pushed == [try key("local")])
        #expect(report.failures.map(\.key) == [try key("unreachable")])
        #expect(report.failures.first?.error.code == .service)
    }
}
