import Foundation
import MockSupport

/// The saved state: items, versions and the change log, in `onedrive-state.json` of the
/// storage folder (see ``PersistentState``).
extension MockOneDriveServer {
    /// Loads the saved state when asked to, and wires its saves to every change.
    /// - Returns: The store, and the persistence when the state is saved.
    /// - Throws: ``PersistentStateError`` when a state file exists but cannot be used.
    static func restoreState(
        in directory: URL, blobs: BlobStore, choice: StatePersistence, appFolderName: String
    ) throws -> (GraphStore, PersistentState?) {
        guard choice.savesState else { return (GraphStore(state: GraphState(appFolderName: appFolderName)), nil) }
        let persistence = try PersistentState(
            directory: directory, kind: GraphSnapshot.kind, formatVersion: GraphSnapshot.formatVersion,
            saveDelay: choice.saveDelay)
        var state = GraphState(appFolderName: appFolderName)
        if let snapshot = try persistence.load(GraphSnapshot.self) {
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
        let store = GraphStore(state: state) { [weak persistence] in persistence?.stateDidChange() }
        persistence.attach { GraphSnapshot(store.copy()) }
        return (store, persistence)
    }

    /// Saves the state now, if it is saved at all and changed since the last save, and waits
    /// until it is written. Call it when the server has stopped.
    /// - Throws: ``PersistentStateError`` when the state cannot be written.
    public func saveState() async throws {
        try await persistence?.flush()
    }
}
