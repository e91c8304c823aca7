import Foundation
import Stratus
import StratusSync
import SyncSimulation
import Synchronization
import Testing

/// Records and their files as one unit: files go first, the document commits, and another
/// device sees either the whole record or nothing.
@Suite struct RecordUnitTests {
    @Test(arguments: SimulationRemote.available)
    func aRecordAndItsFilesReachAnotherDevice(_ kind: SimulationRemote) async throws {
        try await SyncHarness.with(kind) { harness in
            let a = try harness.device("a")
            let b = try harness.device("b")
            let slot = try key("slot-1")
            try a.save(
                Save(level: 3, note: "cave"), as: slot,
                files: ["state": harness.file("state", "STATE-3"), "thumbnail": harness.file("png", "PNG-3")])
            #expect(try a.pendingChangeCount() == 1)

            let pushed = try await a.sync()
            #expect(pushed.pushed == [slot])
            #expect(pushed.isClean)
            #expect(try a.pendingChangeCount() == 0)

            let pulled = try await b.sync()
            #expect(pulled.pulled == [slot])
            let record = try #require(try b.record(slot))
            #expect(try record.decode(Save.self) == Save(level: 3, note: "cave"))
            #expect(record.device == "a")
            #expect(try text(of: record, "state") == "STATE-3")
            #expect(try text(of: record, "thumbnail") == "PNG-3")
            #expect(try b.records(ofType: "save").map(\.key) == [slot])
        }
    }

    @Test(arguments: SimulationRemote.available)
    func filesAreUploadedBeforeTheDocumentAndUnchangedFilesOnlyOnce(_ kind: SimulationRemote) async throws {
        try await SyncHarness.with(kind) { harness in
            let a = try harness.device("a")
            try await a.sync()  // the first sync writes the store marker
            let order = UploadLog()
            harness.remote.beforeUpload { path, _ in order.append(path.string) }
            let slot = try key("slot-1")
            try a.save(
                Save(level: 1), as: slot,
                files: ["state": harness.file("s", "ONE"), "thumbnail": harness.file("t", "PIC")])
            try await a.sync()
            let first = order.paths
            #expect(first.count == 3)
            #expect(first.last == "stratus-sync/records/save/slot-1.json", "the document is the last write: \(first)")
            #expect(first.dropLast().allSatisfy { $0.hasPrefix("stratus-sync/blobs/") })

            // A new value with one changed file sends that file and the document only.
            try a.save(
                Save(level: 2), as: slot,
                files: ["state": harness.file("s", "TWO"), "thumbnail": harness.file("t", "PIC")])
            try await a.sync()
            #expect(order.paths.count == 5, "\(order.paths)")
        }
    }

    @Test(arguments: SimulationRemote.available)
    func aFailedFileUploadCommitsNothing(_ kind: SimulationRemote) async throws {
        try await SyncHarness.with(kind) { harness in
            let a = try harness.device("a")
            let b = try harness.device("b")
            let slot = try key("slot-1")
            try a.save(Save(level: 5), as: slot, files: ["state": harness.file("s", "FIVE")])
            harness.remote.beforeUpload { path, _ in
                if path.string.contains("/blobs/") { throw ServiceError(.server, "injected failure") }
            }
            let report = try await a.sync()
            #expect(report.pushed.isEmpty)
            #expect(report.failures.map(\.key) == [slot])
            #expect(report.failures.first?.error.serviceCode == .server)
            #expect(try await b.sync().pulled.isEmpty)
            #expect(try b.record(slot) == nil)

            harness.remote.beforeUpload(nil)
            #expect(try await a.sync().pushed == [slot])
            try await b.sync()
            #expect(try text(of: b.record(slot), "state") == "FIVE")
        }
    }

    @Test(arguments: SimulationRemote.available)
    func aDeviceDoesNotDownloadItsOwnChangesAgain(_ kind: SimulationRemote) async throws {
        try await SyncHarness.with(kind) { harness in
            let a = try harness.device("a")
            for index in 0..<5 {
                try a.save(
                    Save(level: index), as: key("slot-\(index)"), files: ["state": harness.file("s", "S\(index)")])
            }
            try await a.sync()
            harness.remote.resetCounts()
            let second = try await a.sync()
            #expect(second.pulled.isEmpty)
            #expect(harness.remote.counts["download", default: 0] == 0)
            #expect(!second.usedFullListing)
        }
    }

    @Test(arguments: SimulationRemote.available)
    func deletesTravelAndStayRestorable(_ kind: SimulationRemote) async throws {
        try await SyncHarness.with(kind) { harness in
            let a = try harness.device("a")
            let b = try harness.device("b")
            let slot = try key("slot-1")
            try a.save(Save(level: 7), as: slot, files: ["state": harness.file("s", "SEVEN")])
            try await a.sync()
            try await b.sync()
            try a.delete(slot)
            #expect(try a.record(slot) == nil)
            try await a.sync()
            try await b.sync()
            #expect(try b.record(slot) == nil)

            let history = try await b.versions(of: slot)
            #expect(history.map(\.record.isDeleted) == [true, false])
            try await b.restore(slot, to: history[1].id)
            try await b.sync()
            try await a.sync()
            #expect(try a.record(slot)?.decode(Save.self).level == 7)
            #expect(try text(of: a.record(slot), "state") == "SEVEN")
        }
    }

    @Test(arguments: SimulationRemote.available)
    func badKeysAndFileNamesAreRefused(_ kind: SimulationRemote) async throws {
        try await SyncHarness.with(kind) { harness in
            let a = try harness.device("a")
            await expectSyncError(.invalidKey) { try RecordKey(type: "", id: "x") }
            await expectSyncError(.invalidKey) { try RecordKey(type: "save", id: "a\u{1B}b") }
            await expectSyncError(.invalidKey) { try RecordKey(type: "save", id: String(repeating: "x", count: 201)) }
            await expectSyncError(.invalidKey) {
                try a.save(Save(level: 1), as: key("s"), files: ["": harness.file("x", "x")])
            }
            await expectSyncError(.localFile) {
                try a.save(Save(level: 1), as: key("s"), files: ["state": harness.folder.appending(path: "missing")])
            }
            await expectSyncError(.notFound) { try a.delete(key("never")) }
            #expect(try a.pendingChangeCount() == 0)
        }
    }

    @Test(arguments: SimulationRemote.available)
    func namesAProviderCouldFoldStayApart(_ kind: SimulationRemote) async throws {
        try await SyncHarness.with(kind) { harness in
            let a = try harness.device("a")
            let b = try harness.device("b")
            let ids = ["Slot", "slot", "café", "a/b", "..", "~7e"]
            for (index, id) in ids.enumerated() {
                try a.save(Save(level: index), as: key(id, type: "Save Game"))
            }
            #expect(try await a.sync().pushed.count == ids.count)
            try await b.sync()
            for (index, id) in ids.enumerated() {
                #expect(try b.record(key(id, type: "Save Game"))?.decode(Save.self).level == index)
            }
        }
    }
}

/// The paths uploaded, in order.
final class UploadLog: Sendable {
    private let log = Mutex<[String]>([])
    func append(_ path: String) { log.withLock { $0.append(path) } }
    var paths: [String] { log.withLock { $0 } }
}
