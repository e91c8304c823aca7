import Foundation
import MockSupport

/// The saved state: the namespace, its change log and the property templates, in
/// `dropbox-state.json` of the storage folder (see ``PersistentState``).
extension MockDropboxServer {
    /// The parts of a server that its saved state fills.
    struct RestoredState {
        var namespace: Namespace
        var templates: PropertyTemplates
        var persistence: PersistentState?
    }

    /// Loads the saved state when asked to, and wires its saves to every change.
    /// - Parameters:
    ///   - directory: The storage folder.
    ///   - blobs: Its blob store, which must hold every blob the state names.
    ///   - choice: Whether to save the state at all.
    /// - Throws: ``PersistentStateError`` when a state file exists but cannot be used.
    static func restoreState(in directory: URL, blobs: BlobStore, choice: StatePersistence) throws -> RestoredState {
        guard choice.savesState else {
            return RestoredState(namespace: Namespace(), templates: PropertyTemplates(), persistence: nil)
        }
        let persistence = try PersistentState(
            directory: directory, kind: NamespaceSnapshot.kind, formatVersion: NamespaceSnapshot.formatVersion,
            saveDelay: choice.saveDelay)
        var state = Namespace.State()
        var templates: [String: PropertyTemplates.Template] = [:]
        if let snapshot = try persistence.load(NamespaceSnapshot.self) {
            do {
                state = try snapshot.restoredState()
            } catch {
                throw PersistentStateError(code: .corrupt, file: persistence.file, detail: error.description)
            }
            try persistence.checkBlobs(snapshot.blobs, in: blobs)
            templates = snapshot.templates
        }
        // Upload sessions end with the process that had them: their files are litter now.
        blobs.removeScratchFiles()
        // Weak: the saver holds the namespace (to read it), not the other way round.
        let changed: @Sendable () -> Void = { [weak persistence] in persistence?.stateDidChange() }
        let namespace = Namespace(state: state, onChange: changed)
        let propertyTemplates = PropertyTemplates(templates: templates, onChange: changed)
        persistence.attach {
            // A copy of the state under the lock (copy-on-write, so constant time); the
            // snapshot is built and encoded outside it.
            NamespaceSnapshot(namespace.withState { $0 }, templates: propertyTemplates.all)
        }
        return RestoredState(namespace: namespace, templates: propertyTemplates, persistence: persistence)
    }

    /// Saves the state now, if it is saved at all and changed since the last save, and waits
    /// until it is written. Call it when the server has stopped: a save is otherwise up to the
    /// persistence's `saveDelay` away.
    /// - Throws: ``PersistentStateError`` when the state cannot be written.
    public func saveState() async throws {
        try await persistence?.flush()
    }
}
