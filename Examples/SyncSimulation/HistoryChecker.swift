import Foundation
import Stratus
import StratusDigest
import StratusSync

/// The end-of-run half of the history checker: with the faults stopped and the devices quiet,
/// every acknowledged operation in the ``SimulationLedger`` is looked for.
///
/// - Every acknowledged write of a `save`, `score` or `profile` record is current on a device,
///   archived, in a conflict, or in the record's version history; or the same device replaced
///   it (saved or deleted that record again) before it was pushed, which is the user's choice.
/// - Every acknowledged write id of a `tally` record (a union merge) is in its final value on
///   every device.
/// - All devices hold the same records and files; nothing is left to push; no conflict is left.
/// - A record someone saved and nobody deleted is still there.
/// - Every local file matches its hash, and every blob a record names is on the remote.
struct HistoryChecker {
    private let devices: [AdversarialDevice]
    private let ledger: SimulationLedger
    private let service: any Service
    private(set) var counts: SimulationCounts
    private(set) var problems: [SimulationProblem]

    init(devices: [AdversarialDevice], ledger: SimulationLedger, service: any Service, counts: SimulationCounts) {
        self.devices = devices
        self.ledger = ledger
        self.service = service
        self.counts = counts
        problems = ledger.problems
    }

    private mutating func report(_ promise: SimulationProblem.Promise, step: Int?, _ detail: String) {
        problems.append(
            SimulationProblem(
                promise: promise, seed: ledger.seed, step: step,
                stepDescription: step.flatMap { ledger.stepDescriptions[$0] }, detail: detail))
    }

    mutating func check() async throws {
        try checkConvergence()
        try checkWrites()
        try await checkHistory()
        try checkUnions()
        try checkVanished()
        try await checkFiles()
    }

    /// Every device holds the same records and files; nothing to push, no conflict.
    private mutating func checkConvergence() throws {
        let snapshots = try devices.map { try snapshot($0.store) }
        guard let reference = snapshots.first else { return }
        for (device, other) in zip(devices, snapshots).dropFirst() where other != reference {
            let differing = Set(reference.keys).symmetricDifference(other.keys).union(
                reference.keys.filter { reference[$0] != other[$0] })
            report(
                .devicesConverge, step: nil,
                "\(device.name) differs from device-0 on \(differing.sorted().prefix(5).map(\.description))"
                    + (differing.sorted().first.map { key in
                        "; \(key) is \(other[key] ?? "absent") there, \(reference[key] ?? "absent") on device-0"
                    } ?? ""))
        }
        counts.recordsCompared = reference.count * devices.count
        for device in devices {
            let pending = try device.store.pendingChangeCount()
            if pending != 0 { report(.syncSettles, step: nil, "\(device.name) still has \(pending) change(s) to push") }
            let conflicts = try device.store.conflicts()
            if !conflicts.isEmpty {
                report(
                    .syncSettles, step: nil, "\(device.name) still has conflicts on \(conflicts.map(\.key.description))"
                )
            }
        }
    }

    /// The writes found current, archived or in a conflict on any device, by record.
    private var found: [RecordKey: Set<String>] = [:]
    /// Writes still to look for in the history, with their ledger entry.
    private var unfound: [SimulationLedger.Entry] = []

    private mutating func checkWrites() throws {
        let keys = Set(ledger.entries.map(\.key)).filter { $0.type != "tally" }
        for key in keys {
            var seen = Set<String>()
            for device in devices {
                if let current = try device.store.record(key) {
                    seen.formUnion([SimulationValues.write(of: current)].compactMap { $0 })
                }
                for archived in try device.store.archived(key) where !archived.isDeleted {
                    seen.formUnion([SimulationValues.write(of: archived)].compactMap { $0 })
                }
                for conflict in try device.store.conflicts() where conflict.key == key {
                    seen.formUnion([conflict.local, conflict.remote].compactMap(SimulationValues.write(of:)))
                }
            }
            found[key] = seen
        }
        for entry in ledger.entries where entry.key.type != "tally" {
            guard let write = entry.write else { continue }
            if found[entry.key]?.contains(write) == true {
                counts.writesCurrentOrArchived += 1
            } else if ledger.entries.contains(where: {
                $0.sequence > entry.sequence && $0.device == entry.device && $0.key == entry.key
            }) {
                counts.writesSupersededLocally += 1
            } else {
                unfound.append(entry)
            }
        }
    }

    /// Looks for the writes not found locally in their records' version history.
    private mutating func checkHistory() async throws {
        guard !unfound.isEmpty, let first = devices.first else { return }
        guard service.capabilities.supportsVersions else {
            counts.writesUnverifiable += unfound.count
            return
        }
        var histories: [RecordKey: Set<String>] = [:]
        for entry in unfound {
            guard let write = entry.write else { continue }
            if histories[entry.key] == nil {
                var history = Set<String>()
                for version in try await first.store.versions(of: entry.key) where !version.record.isDeleted {
                    if let id = SimulationValues.write(of: version.record) { history.insert(id) }
                }
                histories[entry.key] = history
            }
            if histories[entry.key]?.contains(write) == true {
                counts.writesInHistory += 1
            } else {
                report(
                    .writeSurvives, step: entry.step,
                    "the write \(write) of \(entry.key) by device-\(entry.device) is lost: not current, archived, a conflict or in the history, and its device did not replace it"
                )
            }
        }
    }

    /// Every acknowledged id of a union record is in its final value on every device.
    private mutating func checkUnions() throws {
        let entries = ledger.entries.filter { $0.key.type == "tally" }
        for key in Set(entries.map(\.key)) {
            let acknowledged = entries.filter { $0.key == key }
            let ids = Set(acknowledged.compactMap(\.write))
            var keptEverywhere = ids
            for device in devices {
                let final = try device.store.record(key).map(SimulationValues.tally(of:)) ?? []
                let missing = ids.subtracting(final)
                keptEverywhere.subtract(missing)
                guard !missing.isEmpty else { continue }
                let firstSaved = acknowledged.filter { $0.write.map(missing.contains) == true }.map(\.step).min()
                report(
                    .unionKeepsEveryWrite, step: ledger.firstUnionLoss[key] ?? firstSaved,
                    "\(missing.count) of \(ids.count) acknowledged write ids of \(key) are missing on \(device.name): \(missing.sorted().prefix(6).joined(separator: ", "))"
                )
            }
            counts.unionWritesKept += keptEverywhere.count
        }
    }

    /// A record someone saved and nobody deleted is still on every device.
    private mutating func checkVanished() throws {
        let deleted = Set(ledger.entries.filter { $0.write == nil }.map(\.key))
        for key in Set(ledger.entries.map(\.key)).subtracting(deleted) {
            for device in devices where try device.store.record(key) == nil {
                let saved = ledger.entries.filter { $0.key == key }.map(\.step).min()
                report(.noVanishing, step: saved, "\(key), saved and never deleted, is not on \(device.name)")
            }
        }
    }

    /// Local files match their hashes; blobs of current records are on the remote.
    private mutating func checkFiles() async throws {
        var blobs = Set<String>()
        for device in devices {
            for type in SimulationSchedule.types {
                for record in try device.store.records(ofType: type) {
                    for file in record.files.values {
                        blobs.insert(file.sha256)
                        let hash = try Digest.hash(fileAt: file.url, algorithms: [.sha256])[.sha256]
                        if hash != file.sha256 {
                            report(
                                .filesIntact, step: nil,
                                "\(device.name): a file of \(record.key) does not match its hash")
                        }
                    }
                }
            }
        }
        for hash in blobs {
            do {
                _ = try await service.metadata(of: RemotePath("stratus-sync/blobs/\(hash.prefix(2))/\(hash)"))
            } catch {
                report(
                    .filesIntact, step: nil,
                    "the blob \(hash) named by a current record is missing on the remote: \(error)")
            }
        }
    }

    private static let canonical: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    /// Every record with its value and file hashes.
    private func snapshot(_ store: SyncStore) throws -> [RecordKey: String] {
        var result: [RecordKey: String] = [:]
        for type in SimulationSchedule.types {
            for record in try store.records(ofType: type) {
                let files = record.files.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.sha256)" }
                let value = String(decoding: try Self.canonical.encode(record.value), as: UTF8.self)
                result[record.key] = "\(value) \(files.joined(separator: ","))"
            }
        }
        return result
    }
}
