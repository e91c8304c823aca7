import Foundation
import MockSupport

/// The saved state: files, folders, revisions and the change log, in `drive-state.json` of
/// the storage folder (see ``PersistentState``).
extension MockDriveServer {
    /// Loads the saved state when asked to, and wires its saves to every change.
    /// - Parameters:
    ///   - directory: The storage folder.
    ///   - blobs: Its blob store, which must hold every blob the state names.
    ///   - choice: Whether to save the state at all.
    /// - Returns: The store, and the persistence when the state is saved.
    /// - Throws: ``PersistentStateError`` when a state file exists but cannot be used.
    static func restoreState(in directory: URL, blobs: BlobStore, choice: StatePersistence) throws -> (
        DriveStore, PersistentState?
    ) {
        guard choice.savesState else { return (DriveStore(), nil) }
        let persistence = try PersistentState(
            directory: directory, kind: DriveSnapshot.kind, formatVersion: DriveSnapshot.formatVersion,
            saveDelay: choice.saveDelay)
        var state = DriveState()
        if let snapshot = try persistence.load(DriveSnapshot.self) {
            do {
                state = try snapshot.restoredState()
            } catch {
                throw PersistentStateError(code: .corrupt, file: persistence.file, detail: error.description)
            }
            try persistence.checkBlobs(snapshot.blobs, in: blobs)
        }
        // Upload sessions end with the process that had them: their files are litter now.
        blobs.removeScratchFiles()
        // Weak: the saver holds the store (to read it), not the other way round.
        let store = DriveStore(state: state) { [weak persistence] in persistence?.stateDidChange() }
        // A copy of the state under the lock (copy-on-write, so constant time); the snapshot is
        // built and encoded outside it.
        persistence.attach { DriveSnapshot(store.withState { $0 }) }
        return (store, persistence)
    }

    /// Saves the state now, if it is saved at all and changed since the last save, and waits
    /// until it is written. Call it when the server has stopped: a save is otherwise up to the
    /// persistence's `saveDelay` away.
    /// - Throws: ``PersistentStateError`` when the state cannot be written.
    public func saveState() async throws {
        try await persistence?.flush()
    }
}
