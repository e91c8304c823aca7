/// Whether a mock keeps its metadata (files, revisions, change log) in memory only, or also
/// saves it in its storage folder so that a mock started again on that folder carries on where
/// the last one stopped (see ``PersistentState``).
///
/// In memory is the default for a mock made in code: tests start from nothing and pay for no
/// saves. `stratus-mock` saves when given `--data-dir`.
///
/// ```swift
/// let dropbox = try MockDropboxServer(
///     storageDirectory: folder, authorization: auth, persistence: .saved())
/// ```
public struct StatePersistence: Sendable, Hashable {
    /// Whether the state is saved to, and loaded from, the storage folder.
    public var savesState: Bool
    /// How long after a change the state is saved; changes in the meantime join that save.
    public var saveDelay: Duration

    /// Creates a choice.
    /// - Parameters:
    ///   - savesState: Whether the state is saved to, and loaded from, the storage folder.
    ///   - saveDelay: How long after a change the state is saved.
    public init(savesState: Bool, saveDelay: Duration = .milliseconds(200)) {
        self.savesState = savesState
        self.saveDelay = saveDelay
    }

    /// Metadata in memory only: a new mock starts empty, whatever its storage folder holds.
    public static let inMemory = StatePersistence(savesState: false)

    /// Metadata loaded from the storage folder when the mock starts, and saved there at most
    /// `delay` after each change and when the mock's owner calls its `saveState()`.
    /// - Parameter delay: How long after a change the state is saved (200 ms by default); a
    ///   hard kill loses what changed in that time.
    /// - Returns: The choice.
    public static func saved(delay: Duration = .milliseconds(200)) -> StatePersistence {
        StatePersistence(savesState: true, saveDelay: delay)
    }
}
