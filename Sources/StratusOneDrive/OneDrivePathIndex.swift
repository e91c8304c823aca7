import Foundation
import Stratus

/// The ids of the items this service has seen, by path and path by id.
///
/// Graph addresses items by path, so the index is not needed to reach a file; it is what turns
/// the delta feed's items (which name their parent by id, and a deleted item by its id alone)
/// back into paths, and it lets a write by id skip a lookup. Paths are compared as Stratus
/// compares them; OneDrive's own comparison ignores case, so a path's spelling is the one last
/// seen.
actor OneDrivePathIndex {
    /// What the index knows of an id.
    struct Entry: Sendable, Equatable {
        var path: RemotePath
        var isFolder: Bool
    }

    private var byID: [String: Entry] = [:]
    private var byPath: [RemotePath: String] = [:]
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
        byID[id] = Entry(path: path, isFolder: isFolder)
        byPath[path] = id
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
        guard let entry = byID.removeValue(forKey: id) else { return [] }
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

    /// Forgets the id at a path, if any.
    func forget(path: RemotePath) {
        if let id = byPath[path] { forget(id) }
    }
}
