import Foundation
import Stratus

/// The adapter's memory of which Drive id each path below the root has, in both directions.
///
/// - Folders: path → id, so a deep path costs one lookup per unknown folder, not one per
///   component on every call. A cached folder id is dropped when a lookup under it misses or a
///   create under it is refused, and the lookup is repeated from the root once.
/// - Files and folders: id → path, so the change feed can name entries Drive reports only by
///   id (a removal carries no name or parents).
/// - The change feed keeps the index correct: an entry that is removed, trashed, renamed or
///   moved is forgotten (a folder with everything below it) and recorded again at its new path.
/// - Folder creation is single-flight per path: concurrent uploads into a new folder create it
///   once, not once each.
actor DrivePathIndex {
    private var folders: [RemotePath: String] = [:]
    private var paths: [String: (path: RemotePath, isFolder: Bool)] = [:]
    private var creating: [RemotePath: Task<String, any Error>] = [:]
    private var rootCreation: Task<String, any Error>?

    /// The cached id of a folder.
    func folderID(_ path: RemotePath) -> String? {
        folders[path]
    }

    /// The path recorded for an id, and whether it is a folder.
    func path(of id: String) -> (path: RemotePath, isFolder: Bool)? {
        paths[id]
    }

    /// Records where an id is.
    func record(_ path: RemotePath, id: String, isFolder: Bool) {
        if let old = paths[id], old.path != path {
            forget(id)
        }
        paths[id] = (path, isFolder)
        if isFolder { folders[path] = id }
    }

    /// Forgets an id; for a folder, also everything recorded below it.
    func forget(_ id: String) {
        guard let entry = paths.removeValue(forKey: id) else { return }
        guard entry.isFolder else { return }
        if folders[entry.path] == id { folders[entry.path] = nil }
        forgetBelow(entry.path)
    }

    /// Forgets the cached folder ids along a path (and below them), so the next lookup asks Drive.
    func forgetFolders(along path: RemotePath) {
        var current: RemotePath? = path
        while let folder = current, !folder.isRoot {
            if let id = folders.removeValue(forKey: folder) {
                paths[id] = nil
            }
            forgetBelow(folder)
            current = folder.parent
        }
    }

    private func forgetBelow(_ folder: RemotePath) {
        for (id, entry) in paths where entry.path != folder && folder.contains(entry.path) {
            paths[id] = nil
            if entry.isFolder, folders[entry.path] == id { folders[entry.path] = nil }
        }
    }

    /// Forgets everything (used when the change feed cannot be followed).
    func forgetAll() {
        folders.removeAll()
        paths.removeAll()
    }

    /// Runs `create` for the root folder once: concurrent and later callers share its result.
    /// A failed run is forgotten, so the next caller tries again.
    func creatingRoot(_ create: @escaping @Sendable () async throws -> String) async throws -> String {
        if let running = rootCreation { return try await running.value }
        let task = Task { try await create() }
        rootCreation = task
        do {
            return try await task.value
        } catch {
            rootCreation = nil
            throw error
        }
    }

    /// Runs `create` for a folder path unless its id is known or a creation is already running,
    /// in which case that one's result is shared.
    func creatingFolder(_ path: RemotePath, _ create: @escaping @Sendable () async throws -> String) async throws
        -> String
    {
        if let id = folders[path] { return id }
        if let running = creating[path] { return try await running.value }
        let task = Task { try await create() }
        creating[path] = task
        defer { creating[path] = nil }
        let id = try await task.value
        record(path, id: id, isFolder: true)
        return id
    }
}
