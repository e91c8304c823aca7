import Foundation
import Stratus
import StratusAdapterKit

/// The ids of the items this service has seen, by path and path by id.
///
/// Graph addresses items by path, so the index is not needed to reach a file; it is what turns
/// the delta feed's items (which name their parent by id, and a deleted item by its id alone)
/// back into paths, and it lets a write by id skip a lookup. Paths are compared as Stratus
/// compares them; OneDrive's own comparison ignores case, so a path's spelling is the one last
/// seen.
///
/// What the delta feed knew of each entry of its recent pages is kept (``ChangePageMemory``), so
/// a page read again names the same deleted items although the first read forgot them; a file
/// this service deleted, or found missing, keeps its last path as a tombstone until the feed
/// reports it (at most ``tombstoneLimit``). With a state file (`OneDriveService+State.swift`),
/// the paths, tombstones and page memory are saved for a new process.
actor OneDrivePathIndex {
    /// What the index knows of an id.
    struct Entry: Codable, Sendable, Equatable {
        var path: RemotePath
        var isFolder: Bool
    }

    /// What the feed knew of an id when it first read an entry of a page: where it was, and,
    /// once the entry made the feed forget it, the paths that reported (for a folder, the files
    /// recorded below it).
    struct Known: Codable, Sendable, Equatable {
        var entry: Entry?
        var deleted: [RemotePath]?
    }

    /// How many deleted files keep their last path until the feed reports them.
    static let tombstoneLimit = 10_000

    var byID: [String: Entry] = [:]
    var byPath: [RemotePath: String] = [:]
    /// Files deleted by this service or found missing, by id, with their last path.
    var tombstones: [String: RemotePath] = [:]
    /// The ids of ``tombstones``, oldest first.
    var tombstoneOrder: [String] = []
    /// What the feed knew of the entries of its recent pages.
    var pageMemory = ChangePageMemory<Known>()
    /// Counts changes to what a state file holds.
    var revision = 0
    /// The state file, once attached, and the revision last written to it.
    var stateFile: (file: AdapterStateFile, savedRevision: Int)?
    /// The last write of the state file, which the next one waits for.
    var lastWrite: Task<Void, any Error>?
    /// The current version id last read for an item, with the cTag it was read at.
    private var versions: [String: (cTag: String, version: VersionID)] = [:]

    /// Remembers the current version of an item at a cTag.
    func record(version: VersionID, of id: String, cTag: String) {
        versions[id] = (cTag, version)
    }

    /// The version last read for an item, when its cTag is still the one it was read at (a new
    /// version always comes with new content, and so a new cTag).
    func version(of id: String, cTag: String) -> VersionID? {
        guard let known = versions[id], known.cTag == cTag else { return nil }
        return known.version
    }

    /// Remembers an item's path.
    func record(_ path: RemotePath, id: String, isFolder: Bool) {
        if let old = byID[id], old.path != path, byPath[old.path] == id {
            byPath[old.path] = nil
        }
        let entry = Entry(path: path, isFolder: isFolder)
        if byID.updateValue(entry, forKey: id) != entry { revision += 1 }
        byPath[path] = id
        dropTombstone(id)
    }

    /// What the feed knows of an id for an entry of a page: what it knew when it first read that
    /// entry, or else the id's current entry (or tombstone), which is then remembered.
    /// - Parameters:
    ///   - id: The item's id.
    ///   - page: The page's link.
    ///   - occurrence: How many entries of the page named the item before this one.
    func known(_ id: String, page: String, occurrence: Int) -> Known {
        if let remembered = pageMemory.recall(page: page, id: id, occurrence: occurrence) { return remembered }
        let known = Known(entry: byID[id] ?? tombstones[id].map { Entry(path: $0, isFolder: false) })
        pageMemory.remember(known, page: page, id: id, occurrence: occurrence)
        revision += 1
        return known
    }

    /// Forgets an item the feed reports deleted, moved, or gone from the root, and says which
    /// paths that deletes: the paths remembered for this entry of the page when it was read
    /// before, else the item's known path (for a folder, the files recorded below it), which
    /// are then remembered.
    /// - Parameters:
    ///   - id: The item's id.
    ///   - known: What ``known(_:page:occurrence:)`` returned for the entry.
    ///   - page: The page's link.
    ///   - occurrence: How many entries of the page named the item before this one.
    /// - Returns: The paths to report deleted.
    func forget(_ id: String, as known: Known, page: String, occurrence: Int) -> [RemotePath] {
        let below = forget(id)
        if let remembered = known.deleted { return remembered }
        let deleted = known.entry.map { $0.isFolder ? below : [$0.path] } ?? []
        pageMemory.remember(
            Known(entry: known.entry, deleted: deleted), page: page, id: id, occurrence: occurrence)
        revision += 1
        return deleted
    }

    /// Forgets a file that was deleted (by this service, or found missing), keeping its last
    /// path as a tombstone for the feed; a folder is forgotten with everything below it.
    func deleted(_ id: String) {
        guard let entry = byID[id] else { return }
        forget(id)
        guard !entry.isFolder else { return }
        tombstones[id] = entry.path
        tombstoneOrder.append(id)
        if tombstoneOrder.count > Self.tombstoneLimit {
            let dropped = tombstoneOrder.prefix(tombstoneOrder.count - Self.tombstoneLimit)
            for old in dropped { tombstones[old] = nil }
            tombstoneOrder.removeFirst(dropped.count)
        }
    }

    private func dropTombstone(_ id: String) {
        guard tombstones.removeValue(forKey: id) != nil else { return }
        tombstoneOrder.removeAll { $0 == id }
        revision += 1
    }

    /// The id last seen at a path.
    func id(of path: RemotePath) -> String? { byPath[path] }

    /// What is known of an id.
    func entry(of id: String) -> Entry? { byID[id] }

    /// Forgets an item, and for a folder everything recorded below it.
    /// - Returns: The paths of the files forgotten (the item itself when it is a file).
    @discardableResult
    func forget(_ id: String) -> [RemotePath] {
        versions[id] = nil
        dropTombstone(id)
        guard let entry = byID.removeValue(forKey: id) else { return [] }
        revision += 1
        if byPath[entry.path] == id { byPath[entry.path] = nil }
        guard entry.isFolder else { return [entry.path] }
        var files: [RemotePath] = []
        for (otherID, other) in byID where entry.path.contains(other.path) && other.path != entry.path {
            byID[otherID] = nil
            versions[otherID] = nil
            if byPath[other.path] == otherID { byPath[other.path] = nil }
            if !other.isFolder { files.append(other.path) }
        }
        return files.sorted()
    }

    /// Forgets the id at a path, if any, as deleted (see ``deleted(_:)``).
    func forget(path: RemotePath) {
        if let id = byPath[path] { deleted(id) }
    }
}
