import Foundation
import MockSupport

/// Moving, renaming and copying items, as `PATCH` and `POST /copy` do.
extension GraphState {
    /// The folder and name an item goes to, with the name clash settled as `conflict` says.
    /// - Returns: The name to use (a free one under `rename`).
    /// - Throws: ``GraphFailure`` 409 `nameAlreadyExists` under `fail` (or when a folder is in
    ///   the way of `replace`), 400 when the destination is the item itself or below it.
    mutating func settle(
        _ id: String?, into parentID: String, name: String, conflict: ConflictBehavior
    ) throws(GraphFailure) -> String {
        try Self.checkName(name)
        guard let parent = items[parentID], parent.isFolder else {
            throw .invalidRequest("The destination is not a folder.")
        }
        if let id, isWithin(id, id: parentID, parentID: parent.parentID) {
            throw .invalidRequest("An item cannot be moved or copied into itself.")
        }
        guard let existing = child(of: parentID, named: name), existing.id != id else { return name }
        switch conflict {
        case .fail:
            throw .nameAlreadyExists(name)
        case .replace:
            guard !existing.isFolder else { throw .nameAlreadyExists(name) }
            try delete(existing.id, condition: WriteCondition())
            return name
        case .rename:
            return freeName(name, in: parentID)
        }
    }

    /// Moves or renames an item (a new eTag; the cTag stays: the content did not change).
    mutating func relocate(_ id: String, to parentID: String, name: String, conflict: ConflictBehavior)
        throws(GraphFailure)
    {
        guard var item = items[id] else { throw .itemNotFound() }
        guard let oldParent = item.parentID else {
            throw GraphFailure(status: 403, code: "accessDenied", message: "The root cannot be moved or renamed.")
        }
        if oldParent == parentID, item.name == name { return }
        let name = try settle(id, into: parentID, name: name, conflict: conflict)
        folders[oldParent]?.remove(item.name)
        item.name = name
        item.parentID = parentID
        item.eTagVersion += 1
        item.modified = Date()
        items[id] = item
        folders[parentID]?.insert(name, id: id)
        logChange(id)
    }

    /// Copies an item (a folder with everything below it) into a folder under a name; the copy
    /// of a file starts a new history with the current content as its first version.
    /// - Returns: The copy's id.
    mutating func copy(
        _ id: String, to parentID: String, name: String, conflict: ConflictBehavior, quota: Int64?
    ) throws(GraphFailure) -> String {
        guard let source = items[id], source.parentID != nil else { throw .itemNotFound() }
        let bytes = subtreeBytes(id)
        if let quota, usedBytes + bytes > quota { throw .quotaLimitReached() }
        let name = try settle(nil, into: parentID, name: name, conflict: conflict)
        return duplicate(source, into: parentID, name: name)
    }

    /// The bytes of the current contents of an item and everything below it.
    private func subtreeBytes(_ id: String) -> Int64 {
        var total: Int64 = 0
        var pending = [id]
        while let next = pending.popLast() {
            guard let item = items[next] else { continue }
            total += item.content?.blob.size ?? 0
            if let children = folders[next] { pending += children.byName.values }
        }
        return total
    }

    /// Writes a copy of an item (and of what it holds) into a folder.
    private mutating func duplicate(_ source: GraphItem, into parentID: String, name: String) -> String {
        let now = Date()
        let id = newID()
        var copy = GraphItem(
            id: id, name: name, parentID: parentID, isFolder: source.isFolder, created: now, modified: now)
        copy.fileSystemCreated = source.fileSystemCreated ?? source.created
        copy.fileSystemModified = source.fileSystemModified ?? source.modified
        if let content = source.content {
            copy.versions = [
                GraphVersion(id: "1.0", blob: content.blob, quickXorHash: content.quickXorHash, modified: now)
            ]
            copy.nextVersionNumber = 2
            usedBytes += content.blob.size
        }
        items[id] = copy
        folders[parentID]?.insert(name, id: id)
        if source.isFolder { folders[id] = FolderIndex() }
        logChange(id)
        for childID in folders[source.id]?.byName.values.sorted() ?? [] {
            guard let child = items[childID] else { continue }
            _ = duplicate(child, into: id, name: child.name)
        }
        return id
    }
}
