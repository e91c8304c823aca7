import Foundation
import Stratus
import StratusAdapterKit

/// The index in a state file: what a new process needs to read a token the old one read or
/// saved (the id → path knowledge, tombstones and the feed's page memory).
extension DrivePathIndex {
    /// What the state file holds.
    struct Saved: Codable, Sendable {
        /// The format, 1.
        var format: Int
        /// Every id the index knows, with its path.
        var locations: [String: Location]
        /// Tombstones, oldest first.
        var tombstones: [Tombstone]
        /// The feed's page memory.
        var pageMemory: ChangePageMemory<Location?>
    }

    /// A deleted file's last path.
    struct Tombstone: Codable, Sendable {
        var id: String
        var path: RemotePath
    }

    /// Whether a state file is attached.
    var hasStateFile: Bool { stateFile != nil }

    /// Attaches a state file and takes in what it holds; what the index learnt in this process
    /// wins over it.
    /// - Throws: ``/Stratus/ServiceError/Code/localFile`` when the file cannot be read.
    func attach(_ file: AdapterStateFile) async throws {
        guard stateFile == nil else { return }
        let saved = try await file.read(Saved.self)
        // Another call may have attached while the file was read.
        guard stateFile == nil else { return }
        if let saved, saved.format == 1 {
            for (id, location) in saved.locations where paths[id] == nil && tombstones[id] == nil {
                paths[id] = location.isFolder ? .folder(location.path) : .file(location.path)
            }
            for tombstone in saved.tombstones where paths[tombstone.id] == nil && tombstones[tombstone.id] == nil {
                tombstones[tombstone.id] = tombstone.path
                tombstoneOrder.append(tombstone.id)
            }
            if pageMemory.isEmpty { pageMemory = saved.pageMemory }
        }
        stateFile = (file, -1)
    }

    /// Writes the state file when the index changed since it was last written.
    /// - Throws: ``/Stratus/ServiceError/Code/localFile`` when it cannot be written.
    func saveIfChanged() async throws {
        guard let (file, saved) = stateFile, saved != revision else { return }
        let written = revision
        let snapshot =
            Saved(
                format: 1,
                locations: paths.mapValues { Location(path: $0.path, isFolder: $0.isFolder) },
                tombstones: tombstoneOrder.compactMap { id in tombstones[id].map { Tombstone(id: id, path: $0) } },
                pageMemory: pageMemory)
        // Writes go out in order: a write waits for the one before it, so an older snapshot
        // never lands after a newer one.
        let previous = lastWrite
        let write = Task {
            _ = await previous?.result
            try await file.write(snapshot)
        }
        lastWrite = write
        try await write.value
        if let current = stateFile, current.savedRevision < written { stateFile = (current.file, written) }
    }
}
