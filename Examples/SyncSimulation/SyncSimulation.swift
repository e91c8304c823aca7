import Foundation
import Stratus
import StratusDigest
import StratusSync

/// A multi-device run of ``StratusSync``: several stores on one service make seeded random
/// edits, deletes and file changes, go offline and come back, sync while faults are injected,
/// and then sync until quiet. Afterwards it checks what the sync layer promises:
/// - every store holds the same records and files;
/// - every write a device offered to a sync is current, in the record's version history, or in
///   a device's archive (a conflict resolved against it);
/// - no record names a blob the remote does not have, and every local file matches its hash;
/// - nothing is left to push and no conflict is left.
public enum SyncSimulation {
    /// The size and shape of a run.
    public struct Options: Sendable {
        /// How many devices (stores).
        public var devices: Int
        /// How many rounds of random activity.
        public var rounds: Int
        /// How many distinct records each type has.
        public var recordsPerType: Int
        /// The seed of every random choice.
        public var seed: UInt64
        /// The chance that a device is offline in a round.
        public var offlineChance: Double
        /// The chance that an edit attaches new file content.
        public var fileChance: Double
        /// The largest file attached, in bytes.
        public var maximumFileSize: Int

        /// Creates options.
        public init(
            devices: Int = 4, rounds: Int = 20, recordsPerType: Int = 6, seed: UInt64 = 1,
            offlineChance: Double = 0.25, fileChance: Double = 0.3, maximumFileSize: Int = 20_000
        ) {
            self.devices = devices
            self.rounds = rounds
            self.recordsPerType = recordsPerType
            self.seed = seed
            self.offlineChance = offlineChance
            self.fileChance = fileChance
            self.maximumFileSize = maximumFileSize
        }
    }

    /// Turns injected faults on or off (a mock's fault rules); `nil` runs without faults.
    public typealias FaultSwitch = @Sendable (_ on: Bool) async throws -> Void

    /// Runs a simulation.
    /// - Parameters:
    ///   - service: The service every device syncs through.
    ///   - folder: A folder of the caller's for the devices' stores (it is not removed).
    ///   - options: The size and seed.
    ///   - faults: Turns faults on for the random phase and off for the quiet phase.
    /// - Returns: What was done and checked; ``Report/problems`` lists every broken promise.
    public static func run(service: any Service, folder: URL, options: Options, faults: FaultSwitch? = nil) async throws
        -> Report
    {
        var random = SeededGenerator(seed: options.seed)
        var report = Report()
        let devices = try (0..<options.devices).map { index in
            try SimulatedDevice(index: index, folder: folder, service: service)
        }
        try await faults?(true)
        for round in 0..<options.rounds {
            // Devices act one by one, then the online ones sync at the same time, so pushes
            // race each other for real.
            var syncing: [Int] = []
            for (index, device) in devices.enumerated() {
                let offline = random.chance(options.offlineChance)
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    try device.act(round: round, options: options, random: &random, report: &report)
                }
                if !offline, random.chance(0.7) {
                    try device.prepareSync()
                    syncing.append(index)
                }
            }
            let stores = syncing.map { devices[$0].store }
            let outcomes = await withTaskGroup(of: (Int, Result<SyncReport, any Error>).self) { group in
                for (slot, store) in stores.enumerated() {
                    group.addTask {
                        do { return (slot, .success(try await store.sync())) } catch { return (slot, .failure(error)) }
                    }
                }
                var outcomes: [(Int, Result<SyncReport, any Error>)] = []
                for await outcome in group { outcomes.append(outcome) }
                return outcomes.sorted { $0.0 < $1.0 }
            }
            for (slot, outcome) in outcomes {
                _ = devices[syncing[slot]].finishSync(outcome, report: &report)
            }
        }
        try await faults?(false)
        // Quiet: everyone online, no faults, conflicts resolved as a user would, until nothing moves.
        var quiet = false
        for _ in 0..<12 where !quiet {
            quiet = true
            for device in devices {
                let moved = try await device.sync(report: &report)
                let resolved = try device.resolveConflicts(random: &random, report: &report)
                if moved || resolved { quiet = false }
            }
        }
        if !quiet { report.problems.append("The stores did not go quiet after 12 rounds of syncs.") }
        try await check(devices, service: service, report: &report)
        return report
    }

    private static func check(_ devices: [SimulatedDevice], service: any Service, report: inout Report) async throws {
        let first = devices[0]
        let reference = try first.snapshot()
        for device in devices.dropFirst() {
            let other = try device.snapshot()
            if other != reference {
                let differing = Set(reference.keys).symmetricDifference(other.keys).union(
                    reference.keys.filter { reference[$0] != other[$0] })
                report.problems.append(
                    "\(device.name) differs from \(first.name) on \(differing.sorted().prefix(5).map(\.description))")
            }
        }
        report.recordsCompared = reference.count * devices.count
        for device in devices {
            if try device.store.pendingChangeCount() != 0 {
                report.problems.append("\(device.name) still has changes to push.")
            }
            if try !device.store.conflicts().isEmpty { report.problems.append("\(device.name) still has conflicts.") }
            // Every local file matches its hash.
            for type in SimulatedDevice.types {
                for record in try device.store.records(ofType: type) {
                    for file in record.files.values {
                        let hash = try Digest.hash(fileAt: file.url, algorithms: [.sha256])[.sha256]
                        if hash != file.sha256 {
                            report.problems.append("\(device.name): a file of \(record.key) does not match its hash.")
                        }
                        report.filesVerified += 1
                    }
                }
            }
        }
        // No record names a blob the remote does not have.
        var blobs = Set<String>()
        for type in SimulatedDevice.types {
            for record in try first.store.records(ofType: type) { blobs.formUnion(record.files.values.map(\.sha256)) }
        }
        for hash in blobs {
            do {
                _ = try await service.metadata(of: RemotePath("stratus-sync/blobs/\(hash.prefix(2))/\(hash)"))
                report.blobsChecked += 1
            } catch {
                report.problems.append("The blob \(hash) named by a current record is missing on the remote: \(error)")
            }
        }
        // Every offered write survives somewhere.
        var offered: [RecordKey: Set<String>] = [:]
        for device in devices { offered.merge(device.offered) { $0.union($1) } }
        for (key, writes) in offered {
            var seen = Set<String>()
            for device in devices {
                if let current = try device.store.record(key) { seen.insert(SimulatedDevice.write(of: current)) }
                for archived in try device.store.archived(key) where !archived.isDeleted {
                    seen.insert(SimulatedDevice.write(of: archived))
                }
            }
            let missing = writes.subtracting(seen)
            var history = Set<String>()
            if !missing.isEmpty, service.capabilities.supportsVersions {
                for version in try await first.store.versions(of: key) where !version.record.isDeleted {
                    history.insert(SimulatedDevice.write(of: version.record))
                }
            }
            for write in writes {
                if seen.contains(write) && !missing.contains(write) {
                    report.writesCurrentOrArchived += 1
                } else if history.contains(write) {
                    report.writesInHistory += 1
                } else {
                    report.problems.append(
                        "The write \(write) of \(key) is lost: not current, not archived, not in the history.")
                }
            }
        }
    }

    /// What a run did and found.
    public struct Report: Sendable, CustomStringConvertible {
        /// Edits made (values, with or without files).
        public var edits = 0
        /// Deletes made.
        public var deletes = 0
        /// Syncs run.
        public var syncs = 0
        /// Record failures reported by syncs (faults, then retried).
        public var recordFailures = 0
        /// Syncs that threw (the remote could not be read at all; retried later).
        public var failedSyncs = 0
        /// Conflicts resolved by the simulated users.
        public var conflictsResolvedByUsers = 0
        /// Conflicts settled by a policy.
        public var conflictsResolvedByPolicies = 0
        /// Records compared across the stores (records × stores).
        public var recordsCompared = 0
        /// Local files checked against their hash.
        public var filesVerified = 0
        /// Blobs of current records found on the remote.
        public var blobsChecked = 0
        /// Offered writes found current or in an archive.
        public var writesCurrentOrArchived = 0
        /// Offered writes found only in the version history.
        public var writesInHistory = 0
        /// Every promise found broken; empty when the run passed.
        public var problems: [String] = []

        /// A multi-line summary: activity, conflicts, checks, writes, then PASS or FAIL with the first 20 problems.
        public var description: String {
            """
            activity: \(edits) edits, \(deletes) deletes, \(syncs) syncs (\(failedSyncs) failed whole, \(recordFailures) record failures retried later)
            conflicts: \(conflictsResolvedByPolicies) settled by policies, \(conflictsResolvedByUsers) resolved by users
            checked: \(recordsCompared) records equal across stores, \(filesVerified) files match their hash, \(blobsChecked) blobs present on the remote
            writes: \(writesCurrentOrArchived) current or archived, \(writesInHistory) in version history, \(problems.count) problems
            \(problems.isEmpty ? "result: PASS" : "result: FAIL\n" + problems.prefix(20).joined(separator: "\n"))
            """
        }
    }
}
