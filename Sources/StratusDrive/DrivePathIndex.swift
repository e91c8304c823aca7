import Foundation
import Stratus
import StratusAdapterKit

/// The adapter's memory of which Drive id each path below the root has, in both directions.
///
/// - Folders: path → id, so a deep path costs one lookup per unknown folder, not one per
///   component on every call. A cached folder id is dropped when a lookup under it misses or a
///   create under it is refused, and the lookup is repeated from the root once.
/// - Files and folders: id → path, so the change feed can name entries Drive reports only by
///   id (a removal carries no name or parents).
/// - The change feed keeps the index correct: an entry that is removed, trashed, renamed or
///   moved is forgotten (a folder with everything below it) and recorded again at its new path.
/// - What the feed knew of each entry of its recent pages is kept (``ChangePageMemory``), so a
///   page read again is interpreted as it was the first time: a removal is named by the same
///   path although the first read forgot it.
/// - A file this service deleted keeps its last path as a tombstone until the feed reports its
///   removal (Drive reports a permanent delete by id alone), at most ``tombstoneLimit`` of them.
/// - With a state file (see `DriveService+State.swift`), the id → path knowledge, tombstones and
///   page memory are saved, so a new process reading an old token knows what the old one did.
/// - Folder creation is single-flight per path: concurrent uploads into a new folder create it
///   once, not once each.
actor DrivePathIndex {
    /// Where an id is. A file seen in the change feed is kept by its folder's path (the array
    /// the index already holds for that folder, shared) and its name rather than by a path of
    /// its own, and the kind rides in the enum's tag: an entry is 24 bytes and no allocation
    /// beyond its id, which matters when the feed records 100,000 files.
    enum Entry {
        /// A folder at a whole path.
        case folder(RemotePath)
        /// A file at a whole path.
        case file(RemotePath)
        /// A file by its folder's path and its name (a valid component).
        case named(String, in: RemotePath)

        var isFolder: Bool {
            if case .folder = self { return true }
            return false
        }

        /// The full path. A name was a valid component when it was recorded, so appending it
        /// cannot fail; the folder stands in if it ever did.
        var path: RemotePath {
            switch self {
            case .folder(let path), .file(let path): path
            case .named(let name, let folder): (try? folder.appending(name)) ?? folder
            }
        }

        /// Whether the entry lies strictly below a folder.
        func isBelow(_ folder: RemotePath) -> Bool {
            switch self {
            case .folder(let path), .file(let path): path != folder && folder.contains(path)
            case .named(_, let parent): folder.contains(parent)
            }
        }

        /// Whether the entry is at the same path as another.
        func isAt(_ other: Entry) -> Bool {
            if case .named(let name, let folder) = self, case .named(let otherName, let otherFolder) = other {
                return folder == otherFolder && name.unicodeScalars.elementsEqual(otherName.unicodeScalars)
            }
            return path == other.path
        }
    }

    /// Where the change feed found an id, as remembered for a page and saved in a state file.
    struct Location: Codable, Sendable, Equatable {
        var path: RemotePath
        var isFolder: Bool
    }

    /// How many deleted files keep their last path until the feed reports them.
    static let tombstoneLimit = 10_000

    private var folders: [RemotePath: String] = [:]
    var paths: [String: Entry] = [:]
    /// Files this service deleted, by id, with their last path, until the feed reports them.
    var tombstones: [String: RemotePath] = [:]
    /// The ids of ``tombstones``, oldest first.
    var tombstoneOrder: [String] = []
    /// What the feed knew of the entries of its recent pages.
    var pageMemory = ChangePageMemory<Location?>()
    /// Counts changes to what a state file holds.
    var revision = 0
    /// The state file, once attached, and the revision last written to it.
    var stateFile: (file: AdapterStateFile, savedRevision: Int)?
    /// The last write of the state file, which the next one waits for.
    var lastWrite: Task<Void, any Error>?
    private var creating: [RemotePath: Task<String, any Error>] = [:]
    private var rootCreation: Task<String, any Error>?

    /// The cached id of a folder.
    func folderID(_ path: RemotePath) -> String? {
        folders[path]
    }

    /// The path recorded for an id, and whether it is a folder.
    func path(of id: String) -> (path: RemotePath, isFolder: Bool)? {
        guard let entry = paths[id] else { return nil }
        return (entry.path, entry.isFolder)
    }

    /// Records where an id is.
    func record(_ path: RemotePath, id: String, isFolder: Bool) {
        store(isFolder ? .folder(path) : .file(path), id: id)
    }

    /// Records where a file is, by its folder's path and its name (a valid component). Passing
    /// the folder's path as the index handed it out lets every file of a folder share that
    /// path's storage.
    func recordFile(named name: String, in folder: RemotePath, id: String) {
        store(.named(name, in: folder), id: id)
    }

    private func store(_ entry: Entry, id: String) {
        if let old = paths[id], !old.isAt(entry) {
            forget(id)
        } else if paths[id] == nil {
            revision += 1
        }
        paths[id] = entry
        if entry.isFolder { folders[entry.path] = id }
    }

    /// What the feed knows of an id for an entry of a page: what it knew when it first read that
    /// entry, or else the id's current path (or tombstone), which is then remembered.
    /// - Parameters:
    ///   - id: The entry's file id.
    ///   - page: The page token.
    ///   - occurrence: How many entries of the page named the id before this one.
    func known(_ id: String, page: String, occurrence: Int) -> Location? {
        if let remembered = pageMemory.recall(page: page, id: id, occurrence: occurrence) { return remembered }
        let current =
            paths[id].map { Location(path: $0.path, isFolder: $0.isFolder) }
            ?? tombstones[id].map { Location(path: $0, isFolder: false) }
        pageMemory.remember(current, page: page, id: id, occurrence: occurrence)
        revision += 1
        return current
    }

    /// Forgets a file this service deleted, keeping its last path as a tombstone for the change
    /// feed (the oldest tombstone goes when there are ``tombstoneLimit``).
    func deleted(_ id: String) {
        guard let entry = paths[id] else { return }
        forget(id)
        guard !entry.isFolder else { return }
        if tombstones.updateValue(entry.path, forKey: id) == nil { tombstoneOrder.append(id) }
        if tombstoneOrder.count > Self.tombstoneLimit {
            let dropped = tombstoneOrder.prefix(tombstoneOrder.count - Self.tombstoneLimit)
            for old in dropped { tombstones[old] = nil }
            tombstoneOrder.removeFirst(dropped.count)
        }
    }

    /// Forgets an id and its tombstone; for a folder, also everything recorded below it.
    func forget(_ id: String) {
        if tombstones.removeValue(forKey: id) != nil {
            tombstoneOrder.removeAll { $0 == id }
            revision += 1
        }
        guard let entry = paths.removeValue(forKey: id) else { return }
        revision += 1
        guard entry.isFolder else { return }
        let path = entry.path
        if folders[path] == id { folders[path] = nil }
        forgetBelow(path)
    }

    /// Forgets the cached folder ids along a path (and below them), so the next lookup asks Drive.
    func forgetFolders(along path: RemotePath) {
        var current: RemotePath? = path
        while let folder = current, !folder.isRoot {
            if let id = folders.removeValue(forKey: folder), paths.removeValue(forKey: id) != nil {
                revision += 1
            }
            forgetBelow(folder)
            current = folder.parent
        }
    }

    private func forgetBelow(_ folder: RemotePath) {
        for (id, entry) in paths where entry.isBelow(folder) {
            paths[id] = nil
            revision += 1
            if entry.isFolder {
                let path = entry.path
                if folders[path] == id { folders[path] = nil }
            }
        }
    }

    /// Forgets everything (used when the change feed cannot be followed).
    func forgetAll() {
        folders.removeAll()
        paths.removeAll()
        revision += 1
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
