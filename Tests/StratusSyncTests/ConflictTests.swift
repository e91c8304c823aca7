import Foundation
import Stratus
import StratusSync
import SyncSimulation
import Synchronization
import Testing

/// No silent overwrite: a push is conditional on the version the device last saw, and a
/// refusal becomes a conflict settled by the record type's policy, the losing side kept.
@Suite struct ConflictTests {
    /// Two devices edit the same synced record; `a` pushes first. Returns `b` after its sync.
    private func race(_ harness: SyncHarness, policies: [String: ConflictPolicy]) async throws -> (
        SyncStore, SyncStore, SyncReport
    ) {
        let a = try harness.device("a", policies: policies)
        let b = try harness.device("b", policies: policies)
        let slot = try key("slot-1")
        try a.save(Save(level: 1), as: slot, files: ["state": harness.file("s", "BASE")])
        try await a.sync()
        try await b.sync()
        try a.save(Save(level: 13, note: "a"), as: slot, files: ["state": harness.file("s", "A-13")])
        try await a.sync()
        try b.save(Save(level: 2, note: "b"), as: slot, files: ["state": harness.file("s", "B-2")])
        return (a, b, try await b.sync())
    }

    @Test(arguments: SimulationRemote.available)
    func manualByDefaultReportsBothSidesAndOverwritesNothing(_ kind: SimulationRemote) async throws {
        try await SyncHarness.with(kind) { harness in
            let (a, b, report) = try await race(harness, policies: [:])
            let slot = try key("slot-1")
            #expect(report.conflicts == [slot])
            #expect(report.pushed.isEmpty)
            let conflict = try #require(try b.conflicts().first)
            #expect(try conflict.local.decode(Save.self).level == 2)
            #expect(try conflict.remote.decode(Save.self).level == 13)
            #expect(try conflict.base?.decode(Save.self).level == 1)
            #expect(try text(of: conflict.remote, "state") == "A-13", "the remote side's files are readable")
            #expect(try text(of: conflict.local, "state") == "B-2")
            // The remote still holds a's write; syncing again changes nothing.
            #expect(try await b.sync().conflicts == [slot])
            try await a.sync()
            #expect(try a.record(slot)?.decode(Save.self).level == 13)

            try b.resolve(slot, with: .keepLocal)
            #expect(try b.conflicts().isEmpty)
            #expect(try await b.sync().pushed == [slot])
            try await a.sync()
            #expect(try a.record(slot)?.decode(Save.self).level == 2)
            // a's 13 is not lost: it is in the history.
            let levels = try await a.versions(of: slot).map { try $0.record.decode(Save.self).level }
            #expect(levels == [2, 13, 1])
        }
    }

    @Test(arguments: SimulationRemote.available)
    func keepRemoteArchivesTheLocalSide(_ kind: SimulationRemote) async throws {
        try await SyncHarness.with(kind) { harness in
            let (_, b, report) = try await race(harness, policies: ["save": .keepRemote])
            let slot = try key("slot-1")
            #expect(report.resolved == [slot])
            #expect(report.isClean)
            #expect(try b.record(slot)?.decode(Save.self).level == 13)
            #expect(try text(of: b.record(slot), "state") == "A-13")
            let archived = try b.archived(slot)
            #expect(try archived.map { try $0.decode(Save.self).level } == [2])
            #expect(try text(of: archived.first, "state") == "B-2")
        }
    }

    @Test(arguments: SimulationRemote.available)
    func keepLocalPushesOverTheRemoteSideWhichStaysInHistory(_ kind: SimulationRemote) async throws {
        try await SyncHarness.with(kind) { harness in
            let (a, b, report) = try await race(harness, policies: ["save": .keepLocal])
            let slot = try key("slot-1")
            #expect(report.pushed == [slot])
            try await a.sync()
            #expect(try a.record(slot)?.decode(Save.self).level == 2)
            #expect(try await b.versions(of: slot).map { try $0.record.decode(Save.self).level } == [2, 13, 1])
        }
    }

    @Test(arguments: SimulationRemote.available)
    func newestTakesTheLaterEdit(_ kind: SimulationRemote) async throws {
        try await SyncHarness.with(kind) { harness in
            let (a, b, _) = try await race(harness, policies: ["save": .newest])
            let slot = try key("slot-1")
            // b edited after a, so b's side wins and is pushed.
            try await a.sync()
            #expect(try a.record(slot)?.decode(Save.self).level == 2)
            #expect(try b.record(slot)?.decode(Save.self).level == 2)
        }
    }

    @Test(arguments: SimulationRemote.available)
    func aThreeWayMergeSeesTheBaseAndBothSides(_ kind: SimulationRemote) async throws {
        try await SyncHarness.with(kind) { harness in
            let merge = ConflictPolicy.merge(Save.self) { base, local, remote in
                Save(level: max(local.level, remote.level), note: "\(base?.level ?? -1)+\(local.note)+\(remote.note)")
            }
            let (a, b, report) = try await race(harness, policies: ["save": merge])
            let slot = try key("slot-1")
            #expect(report.resolved == [slot])
            #expect(report.pushed == [slot])
            try await a.sync()
            let merged = try #require(try a.record(slot))
            #expect(try merged.decode(Save.self) == Save(level: 13, note: "1+b+a"))
            #expect(try text(of: merged, "state") == "B-2", "on a name both sides have, the local file wins")
            #expect(try b.archived(slot).count == 1)
        }
    }

    @Test(arguments: SimulationRemote.available)
    func aMergeThatGivesUpLeavesTheConflictToTheApp(_ kind: SimulationRemote) async throws {
        try await SyncHarness.with(kind) { harness in
            struct Refusal: Error {}
            let (_, b, report) = try await race(harness, policies: ["save": .merge { _ in throw Refusal() }])
            #expect(report.conflicts == [try key("slot-1")])
            #expect(try b.conflicts().count == 1)
        }
    }

    @Test(arguments: SimulationRemote.available)
    func aDeleteAgainstAnEditIsAConflictNotALoss(_ kind: SimulationRemote) async throws {
        try await SyncHarness.with(kind) { harness in
            let a = try harness.device("a")
            let b = try harness.device("b")
            let slot = try key("slot-1")
            try a.save(Save(level: 4), as: slot)
            try await a.sync()
            try await b.sync()
            try a.delete(slot)
            try await a.sync()
            try b.save(Save(level: 5), as: slot)
            let report = try await b.sync()
            #expect(report.conflicts == [slot])
            let conflict = try #require(try b.conflicts().first)
            #expect(conflict.remote.isDeleted)
            #expect(try conflict.local.decode(Save.self).level == 5)
            try b.resolve(slot, with: .keepLocal)
            try await b.sync()
            try await a.sync()
            #expect(try a.record(slot)?.decode(Save.self).level == 5)
        }
    }

    @Test(arguments: SimulationRemote.available)
    func aMergedResolutionWithNewFilesIsPushed(_ kind: SimulationRemote) async throws {
        try await SyncHarness.with(kind) { harness in
            let (a, b, _) = try await race(harness, policies: [:])
            let slot = try key("slot-1")
            try b.resolve(
                slot, with: .merged(JSONValue(encoding: Save(level: 99)), files: ["state": harness.file("s", "MERGED")])
            )
            try await b.sync()
            try await a.sync()
            #expect(try a.record(slot)?.decode(Save.self).level == 99)
            #expect(try text(of: a.record(slot), "state") == "MERGED")
            await expectSyncError(.notFound) { try b.resolve(slot, with: .keepLocal) }
        }
    }

    @Test(arguments: SimulationRemote.available)
    func aLostAnswerIsRecognisedAsTheDevicesOwnWrite(_ kind: SimulationRemote) async throws {
        try await SyncHarness.with(kind) { harness in
            let path = try harness.documentPath("save", "slot-1")
            let lossy = ScriptedService(harness.remote)
            let a = try harness.device("a", service: lossy)
            let slot = try key("slot-1")
            try a.save(Save(level: 1), as: slot)
            try await a.sync()
            try a.save(Save(level: 2), as: slot)
            // The document write happens, but its answer is lost.
            lossy.loseNextAnswer(to: path)
            let first = try await a.sync()
            #expect(first.failures.map(\.key) == [slot])
            #expect(first.failures.first?.error.serviceCode == .network)
            let second = try await a.sync()
            #expect(second.isClean, "\(second.failures)")
            #expect(try a.pendingChangeCount() == 0)
            #expect(try await a.versions(of: slot).count == 2, "nothing was written twice")
            #expect(try a.record(slot)?.decode(Save.self).level == 2)
        }
    }
}

/// The precondition itself: a write that lands between a device's pull and its push.
@Suite struct PreconditionTests {
    @Test(arguments: SimulationRemote.available)
    func aWriteBetweenPullAndPushIsAConflictNotAnOverwrite(_ kind: SimulationRemote) async throws {
        try await SyncHarness.with(kind) { harness in
            let a = try harness.device("a")
            let b = try harness.device("b")
            let slot = try key("slot-1")
            try a.save(Save(level: 1), as: slot)
            try await a.sync()
            try await b.sync()
            try a.save(Save(level: 13), as: slot)
            try b.save(Save(level: 2), as: slot)
            let document = try harness.documentPath("save", "slot-1")
            let once = Mutex(true)
            harness.remote.beforeUpload { path, _ in
                guard path == document,
                    once.withLock({ first in
                        defer { first = false }
                        return first
                    })
                else { return }
                _ = try await a.sync()  // a's push lands after b pulled and before b's write
            }
            let report = try await b.sync()
            #expect(report.conflicts == [slot])
            #expect(report.pushed.isEmpty)
            try await a.sync()
            #expect(try a.record(slot)?.decode(Save.self).level == 13, "a's write was not overwritten")
            #expect(try b.conflicts().first?.remote.decode(Save.self).level == 13)
        }
    }

    @Test(arguments: SimulationRemote.available)
    func aFirstWriteOfTheSameRecordOnTwoDevicesIsAConflict(_ kind: SimulationRemote) async throws {
        try await SyncHarness.with(kind) { harness in
            let a = try harness.device("a")
            let b = try harness.device("b")
            let slot = try key("slot-1")
            try a.save(Save(level: 5), as: slot)
            try b.save(Save(level: 6), as: slot)
            let document = try harness.documentPath("save", "slot-1")
            let once = Mutex(true)
            harness.remote.beforeUpload { path, _ in
                guard path == document,
                    once.withLock({ first in
                        defer { first = false }
                        return first
                    })
                else { return }
                _ = try await a.sync()
            }
            let report = try await b.sync()
            #expect(report.conflicts == [slot])
            try await a.sync()
            #expect(try a.record(slot)?.decode(Save.self).level == 5)
        }
    }
}
