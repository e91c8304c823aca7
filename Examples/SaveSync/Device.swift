import Foundation
import Stratus

/// One device playing the game: its save folder and what it last synced, kept in a state folder.
///
/// ```
/// DIR/saves/progress.json   the game's save
/// DIR/sync-state.json       the remote version this device last saw, and the save it synced
/// ```
struct Device: Sendable {
    /// What the device remembers between syncs.
    struct SyncState: Codable, Equatable {
        /// The remote version the device last uploaded or downloaded.
        var lastSeenVersion: String?
        /// The save as it was at that sync, to tell whether the player made progress since.
        var lastSynced = GameSave()
    }

    let name: String
    let folder: URL

    var saveFile: URL { folder.appending(path: "saves/progress.json") }
    var stateFile: URL { folder.appending(path: "sync-state.json") }

    /// The device's save; a device that never played has an empty one.
    func loadSave() throws -> GameSave {
        guard let data = try? Data(contentsOf: saveFile) else { return GameSave() }
        return try GameSave.decode(data, from: saveFile.path)
    }

    /// Writes the device's save.
    func writeSave(_ save: GameSave) throws {
        try FileManager.default.createDirectory(at: saveFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try save.encoded().write(to: saveFile, options: .atomic)
    }

    /// What the device last synced.
    func loadState() throws -> SyncState {
        guard let data = try? Data(contentsOf: stateFile) else { return SyncState() }
        do {
            return try JSONDecoder().decode(SyncState.self, from: data)
        } catch {
            throw SaveSyncFailure("The sync state \(stateFile.path) is damaged (\(error)); delete it and sync again (the next sync merges).")
        }
    }

    private func writeState(_ state: SyncState) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        try encoder.encode(state).write(to: stateFile, options: .atomic)
    }

    /// Plays a level: records the result in the device's save (the best result stays).
    @discardableResult
    func play(level: String, stars: Int, score: Int) throws -> GameSave {
        var save = try loadSave()
        save.record(level: level, stars: stars, score: score)
        try writeSave(save)
        return save
    }

    /// What one sync did.
    enum Outcome: Equatable {
        /// The device's progress went up as this version.
        case uploaded(VersionID)
        /// Another device's newer save came down.
        case downloaded(VersionID)
        /// Nothing to do: both sides are at this version (or nothing exists anywhere).
        case upToDate(VersionID?)
        /// Both sides changed: the upload was refused as a conflict with `theirs`, the two
        /// saves were merged, and the merge went up as `merged`.
        case merged(theirs: VersionID, merged: VersionID, result: GameSave)
    }

    /// Syncs the device's save with the remote file, never overwriting progress made elsewhere.
    ///
    /// When the player made progress since the last sync, the save goes up with the
    /// precondition that the remote is still at the version this device last saw
    /// (`.mustMatch`, or `.mustNotExist` for a first upload). If another device uploaded in
    /// between, the service refuses with `conflict`: the device then downloads the other
    /// save, keeps the best result of each level, and uploads that merge with the precondition
    /// that the remote is at the version it merged with (repeating if yet another device
    /// slipped in).
    /// - Parameters:
    ///   - service: The remote.
    ///   - path: The save's path on the remote.
    ///   - say: Receives one line of narration per step.
    func sync(with service: any Service, at path: RemotePath, say: (String) -> Void) async throws -> Outcome {
        var state = try loadState()
        let local = try loadSave()
        guard local != state.lastSynced else {
            return try await pullIfNewer(service, path, state: state, say: say)
        }

        let precondition: WritePrecondition = state.lastSeenVersion.map { .mustMatch(VersionID($0)) } ?? .mustNotExist
        say("\(name) uploads its save on the condition \(describe(precondition))")
        do {
            let written = try await service.upload(
                from: .bytes(try local.encoded()), to: path, options: UploadOptions(precondition: precondition)
            )
            state = SyncState(lastSeenVersion: written.version.rawValue, lastSynced: local)
            try writeState(state)
            say("accepted: the remote save is now version \(written.version)")
            return .uploaded(written.version)
        } catch let error as ServiceError where error.code == .conflict {
            say("REFUSED with `conflict`: another device uploaded first, and Stratus does not overwrite it")
            say("  (\(error.message))")
        }

        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for _ in 1...5 {
            let theirsFile = folder.appending(path: "incoming-\(UUID().uuidString).json")
            defer { try? FileManager.default.removeItem(at: theirsFile) }
            let theirsMeta = try await service.download(path, to: theirsFile)
            let theirs = try GameSave.decode(try Data(contentsOf: theirsFile), from: "the remote (version \(theirsMeta.version))")
            let merged = local.merged(with: theirs)
            say("downloaded the other save (version \(theirsMeta.version)) and merged: the best result of each level wins")
            do {
                let written = try await service.upload(
                    from: .bytes(try merged.encoded()), to: path,
                    options: UploadOptions(precondition: .mustMatch(theirsMeta.version))
                )
                try writeSave(merged)
                try writeState(SyncState(lastSeenVersion: written.version.rawValue, lastSynced: merged))
                say("uploaded the merge on the condition .mustMatch(\(theirsMeta.version)) (the version it merged with): now version \(written.version)")
                return .merged(theirs: theirsMeta.version, merged: written.version, result: merged)
            } catch let error as ServiceError where error.code == .conflict {
                say("yet another device uploaded in between; merging again")
            }
        }
        throw SaveSyncFailure("The save kept changing on the remote while \(name) merged; sync again in a moment.")
    }

    /// Downloads the remote save when it is newer than what the device last saw.
    private func pullIfNewer(_ service: any Service, _ path: RemotePath, state: SyncState, say: (String) -> Void) async throws -> Outcome {
        let current: RemoteFile
        do {
            current = try await service.metadata(of: path)
        } catch let error as ServiceError where error.code == .notFound {
            say("nothing to sync: no save on the remote and no progress on \(name)")
            return .upToDate(nil)
        }
        if current.version.rawValue == state.lastSeenVersion {
            say("\(name) is up to date at version \(current.version)")
            return .upToDate(current.version)
        }
        // Downloads replace the file atomically, and only with hash-checked content.
        try FileManager.default.createDirectory(at: saveFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        let read = try await service.download(path, to: saveFile)
        let save = try loadSave()
        try writeState(SyncState(lastSeenVersion: read.version.rawValue, lastSynced: save))
        say("\(name) had no new progress; it downloaded version \(read.version)")
        return .downloaded(read.version)
    }

    /// Where the device stands, without changing anything.
    func status(with service: any Service, at path: RemotePath) async throws -> [String] {
        let state = try loadState()
        let local = try loadSave()
        var lines = [
            "device: \(name) (\(folder.path))",
            "save: \(local.summary)",
            "last synced version: \(state.lastSeenVersion ?? "never synced")",
        ]
        let localChanged = local != state.lastSynced
        do {
            let current = try await service.metadata(of: path)
            lines.append("remote version: \(current.version)")
            let remoteChanged = current.version.rawValue != state.lastSeenVersion
            let verdict = switch (localChanged, remoteChanged) {
            case (false, false): "in sync"
            case (true, false): "new progress to upload"
            case (false, true): "another device uploaded; the next sync downloads it"
            case (true, true): "both changed; the next sync will be refused as a conflict and merge"
            }
            lines.append("state: " + verdict)
        } catch let error as ServiceError where error.code == .notFound {
            lines.append("remote version: none yet")
            lines.append("state: " + (localChanged ? "new progress to upload" : "nothing to sync"))
        }
        return lines
    }

    private func describe(_ precondition: WritePrecondition) -> String {
        switch precondition {
        case .none: "none"
        case .mustNotExist: ".mustNotExist (first upload)"
        case .mustMatch(let version): ".mustMatch(\(version)) (the version it last saw)"
        }
    }
}
