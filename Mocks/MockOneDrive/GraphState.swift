import Foundation
import MockSupport

/// What a write does when the name is taken: Graph's `@microsoft.graph.conflictBehavior`.
enum ConflictBehavior: String, Sendable {
    /// Replace the existing file (a new version of it).
    case replace
    /// Fail with 409 `nameAlreadyExists`.
    case fail
    /// Pick a free name: `name 1.txt`, `name 2.txt`, ...
    case rename
}

/// The `If-Match` / `If-None-Match` of a write.
struct WriteCondition: Sendable {
    /// `If-Match`: the item must exist with this eTag or cTag (`*`: exist at all).
    var ifMatch: String?
    /// `If-None-Match`: `*` means the item must not exist; a tag means it must not match it.
    var ifNoneMatch: String?

    /// Checks the condition against the item the write would replace.
    /// - Throws: ``GraphFailure`` 412 when it does not hold.
    func check(_ existing: GraphItem?) throws(GraphFailure) {
        if let ifMatch {
            guard let existing, existing.matches(ifMatch) else { throw .preconditionFailed() }
        }
        if let ifNoneMatch, let existing {
            if GraphItem.bareTag(ifNoneMatch) == "*" || existing.matches(ifNoneMatch) { throw .preconditionFailed() }
        }
    }
}

/// A change as `delta` reports it.
enum DeltaEntry: Sendable {
    /// An item as it is now.
    case item(GraphItem)
    /// A deleted item.
    case deleted(GraphTombstone)
}

/// The whole drive: items by id, each folder's children by name, the deleted items and the
/// change log. Lookups by id and by name are dictionary lookups, paging is a binary search,
/// and `delta` reads the log from a position, so no request scans the drive.
struct GraphState: Sendable {
    /// The drive's id (16 lowercase hex digits, as OneDrive personal's).
    var driveID: String
    /// Every item.
    var items: [String: GraphItem] = [:]
    /// Every folder's children.
    var folders: [String: FolderIndex] = [:]
    /// Deleted items, for delta.
    var tombstones: [String: GraphTombstone] = [:]
    /// The change log: the id of the item each change touched. Position `p` (from 1) is
    /// `log[p - 1]`; a delta token holds the position it has seen up to.
    var log: [String] = []
    /// Delta tokens carry it; ``expireDeltaTokens()`` bumps it, and tokens of an earlier
    /// epoch answer 410.
    var deltaEpoch = 1
    /// The next item number.
    var nextNumber = 101
    /// The root folder's id.
    var rootID = ""
    /// The app folder's id, once made.
    var appRootID: String?
    /// The name of the app folder under `/Apps`.
    var appFolderName: String
    /// Bytes held by every version of every file.
    var usedBytes: Int64 = 0
    /// Items whose eTag is to change once more (the drift option).
    var driftPending: Set<String> = []

    init(appFolderName: String) {
        let digits = Array("0123456789abcdef")
        driveID = String((0..<16).map { _ in digits[Int.random(in: 0..<16)] })
        self.appFolderName = appFolderName
        let now = Date()
        rootID = newID()
        items[rootID] = GraphItem(id: rootID, name: "root", parentID: nil, isFolder: true, created: now, modified: now)
        folders[rootID] = FolderIndex()
        logChange(rootID)
    }

    /// A fresh item id, `<DRIVE ID>!<n>`.
    mutating func newID() -> String {
        defer { nextNumber += 1 }
        return "\(driveID.uppercased())!\(nextNumber)"
    }

    /// Records a change of an item in the log.
    mutating func logChange(_ id: String) {
        log.append(id)
        items[id]?.lastChange = log.count
    }

    /// The child of a folder with a name (any case).
    func child(of folderID: String, named name: String) -> GraphItem? {
        folders[folderID]?.byName[name.lowercased()].flatMap { items[$0] }
    }

    /// The item at a path below an item, or `nil`.
    func resolve(from baseID: String, path: [String]) -> GraphItem? {
        var current = items[baseID]
        for name in path {
            guard let folder = current, folder.isFolder else { return nil }
            current = child(of: folder.id, named: name)
        }
        return current
    }

    /// The path Graph writes in `parentReference.path` for the children of a folder:
    /// `/drive/root:` for the root's, `/drive/root:/a/b` below.
    func referencePath(ofFolder id: String) -> String {
        var names: [String] = []
        var current = items[id]
        while let item = current, let parent = item.parentID {
            names.append(item.name)
            current = items[parent]
        }
        return "/drive/root:" + names.reversed().map { "/" + $0 }.joined()
    }

    /// The app folder (`/Apps/<name>`), made (and logged) on first use.
    mutating func appRoot() -> GraphItem? {
        if let appRootID, let item = items[appRootID] { return item }
        guard let apps = try? ensureFolders(from: rootID, path: ["Apps", appFolderName]) else { return nil }
        items[apps]?.specialFolder = "approot"
        appRootID = apps
        return items[apps]
    }

    /// The folder at a path below a folder, making the missing ones (as Graph does for an
    /// upload by path).
    /// - Returns: The folder's id.
    /// - Throws: ``GraphFailure`` 409 when a file is in the way, 404 when the base is missing.
    mutating func ensureFolders(from baseID: String, path: [String]) throws(GraphFailure) -> String {
        guard let base = items[baseID], base.isFolder else { throw .itemNotFound() }
        var current = base.id
        for name in path {
            if let existing = child(of: current, named: name) {
                guard existing.isFolder else { throw .nameAlreadyExists(name) }
                current = existing.id
                continue
            }
            try Self.checkName(name)
            let id = newID()
            let now = Date()
            items[id] = GraphItem(id: id, name: name, parentID: current, isFolder: true, created: now, modified: now)
            folders[id] = FolderIndex()
            folders[current]?.insert(name, id: id)
            logChange(id)
            current = id
        }
        return current
    }

    /// Makes a folder, as `POST /children` with a `folder` facet does; with `replace`, a folder
    /// of that name already there is kept as it is (Graph answers it with 200).
    /// - Returns: The folder, and whether it was made.
    mutating func createFolder(in parentID: String, name: String, conflict: ConflictBehavior) throws(GraphFailure)
        -> (GraphItem, created: Bool)
    {
        try Self.checkName(name)
        guard let parent = items[parentID], parent.isFolder else { throw .itemNotFound() }
        var name = name
        if let existing = child(of: parent.id, named: name) {
            switch conflict {
            case .fail: throw .nameAlreadyExists(name)
            case .replace:
                if existing.isFolder { return (existing, false) }
                try delete(existing.id, condition: WriteCondition())
            case .rename: name = freeName(name, in: parent.id)
            }
        }
        let id = try ensureFolders(from: parent.id, path: [name])
        guard let item = items[id] else { throw .itemNotFound() }
        return (item, true)
    }

    /// Writes content to a file: a new file, or a new version of the one there.
    /// - Parameters:
    ///   - parentID: The folder.
    ///   - name: The file's name.
    ///   - existingID: The file being updated, when addressed by id.
    ///   - version: The content.
    ///   - conflict: What to do when the name is taken.
    ///   - condition: `If-Match` / `If-None-Match`.
    ///   - quota: The drive's size, if limited.
    /// - Returns: The file, and whether it was created.
    mutating func writeFile(
        in parentID: String?, name: String?, existingID: String?, blob: BlobInfo, quickXorHash: String,
        conflict: ConflictBehavior, condition: WriteCondition, quota: Int64?
    ) throws(GraphFailure) -> (GraphItem, created: Bool) {
        var target: GraphItem?
        var parentID = parentID
        var name = name ?? ""
        if let existingID {
            guard let existing = items[existingID] else { throw .itemNotFound() }
            guard !existing.isFolder else {
                throw .invalidRequest("The item is a folder; content can be written only to a file.")
            }
            target = existing
            parentID = existing.parentID
            name = existing.name
        } else {
            guard let parentID, let parent = items[parentID], parent.isFolder else { throw .itemNotFound() }
            try Self.checkName(name)
            target = child(of: parent.id, named: name)
        }
        try condition.check(target)
        if let existing = target, existingID == nil {
            switch conflict {
            case .replace:
                if existing.isFolder { throw .nameAlreadyExists(name) }
            case .fail: throw .nameAlreadyExists(name)
            case .rename:
                if let parentID { name = freeName(name, in: parentID) }
                target = nil
            }
        }
        if let quota, usedBytes + blob.size > quota { throw .quotaLimitReached() }
        usedBytes += blob.size
        let now = Date()
        guard let parentID else { throw .itemNotFound() }
        var item =
            target
            ?? GraphItem(id: newID(), name: name, parentID: parentID, isFolder: false, created: now, modified: now)
        let created = target == nil
        if !created {
            item.eTagVersion += 1
            item.cTagVersion += 1
        }
        item.modified = now
        item.fileSystemModified = nil
        item.versions.append(
            GraphVersion(id: "\(item.nextVersionNumber).0", blob: blob, quickXorHash: quickXorHash, modified: now))
        item.nextVersionNumber += 1
        items[item.id] = item
        if created { folders[parentID]?.insert(name, id: item.id) }
        logChange(item.id)
        return (items[item.id] ?? item, created)
    }

    /// Makes an old version the current one again, as a new version (history only grows).
    mutating func restore(_ id: String, version versionID: String) throws(GraphFailure) {
        guard var item = items[id], !item.isFolder else { throw .itemNotFound() }
        guard let old = item.versions.first(where: { $0.id == versionID }) else {
            throw .itemNotFound("The version \(versionID) of the item does not exist.")
        }
        let now = Date()
        item.versions.append(
            GraphVersion(
                id: "\(item.nextVersionNumber).0", blob: old.blob, quickXorHash: old.quickXorHash, modified: now))
        item.nextVersionNumber += 1
        item.eTagVersion += 1
        item.cTagVersion += 1
        item.modified = now
        usedBytes += old.blob.size
        items[id] = item
        logChange(id)
    }

    /// Deletes an item and everything below it; each becomes a tombstone in the log.
    mutating func delete(_ id: String, condition: WriteCondition) throws(GraphFailure) {
        guard let item = items[id] else { throw .itemNotFound() }
        guard item.parentID != nil else {
            throw GraphFailure(status: 403, code: "accessDenied", message: "The root cannot be deleted.")
        }
        try condition.check(item)
        if let parent = item.parentID { folders[parent]?.remove(item.name) }
        var pending = [id]
        while let next = pending.popLast() {
            guard let gone = items.removeValue(forKey: next) else { continue }
            if let children = folders.removeValue(forKey: next) { pending += children.byName.values }
            for version in gone.versions { usedBytes -= version.blob.size }
            if appRootID == next { appRootID = nil }
            driftPending.remove(next)
            log.append(next)
            tombstones[next] = GraphTombstone(
                id: next, name: gone.name, parentID: gone.parentID, isFolder: gone.isFolder, change: log.count)
        }
    }

    /// Changes the eTag of every item waiting for its drift (the option imitating the
    /// service's change of an eTag shortly after an upload).
    mutating func applyDrift() {
        for id in driftPending { items[id]?.eTagVersion += 1 }
        driftPending.removeAll()
    }

    /// A name that is free in a folder: `name 1.ext`, `name 2.ext`, ...
    func freeName(_ name: String, in folderID: String) -> String {
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let stem = dot.map { String(name[..<$0]) } ?? name
        let suffix = dot.map { String(name[$0...]) } ?? ""
        var number = 1
        while child(of: folderID, named: "\(stem) \(number)\(suffix)") != nil { number += 1 }
        return "\(stem) \(number)\(suffix)"
    }

    /// Whether an item (or a deleted one, by its last parent) is the folder `scopeID` or lies
    /// below it.
    func isWithin(_ scopeID: String, id: String, parentID: String?) -> Bool {
        if scopeID == rootID || id == scopeID { return true }
        var current = parentID
        var steps = 0
        while let next = current, steps < 10_000 {
            if next == scopeID { return true }
            current = items[next]?.parentID ?? tombstones[next]?.parentID
            steps += 1
        }
        return false
    }

    /// A page of changes below a folder after a log position: each item once, as it is now,
    /// when the entry is its latest; deleted items unless `initial` (a first enumeration lists
    /// what exists).
    /// - Returns: The entries and the position the page reached.
    func deltaPage(scope scopeID: String, after position: Int, limit: Int, initial: Bool) -> ([DeltaEntry], Int) {
        var entries: [DeltaEntry] = []
        var position = max(0, min(position, log.count))
        // Bounded, so a run of superseded entries cannot make one request long.
        let scanLimit = max(limit, 1) * 8
        var scanned = 0
        while position < log.count, scanned < scanLimit {
            let entry = self.entry(at: position + 1, scope: scopeID, initial: initial)
            if entry != nil, entries.count == limit { break }
            position += 1
            scanned += 1
            if let entry { entries.append(entry) }
        }
        return (entries, position)
    }

    /// The change at a log position (from 1), if it is an item's latest and below the scope.
    private func entry(at position: Int, scope scopeID: String, initial: Bool) -> DeltaEntry? {
        let id = log[position - 1]
        if let item = items[id], item.lastChange == position {
            return isWithin(scopeID, id: id, parentID: item.parentID) ? .item(item) : nil
        }
        if !initial, let tombstone = tombstones[id], tombstone.change == position,
            isWithin(scopeID, id: id, parentID: tombstone.parentID)
        {
            return .deleted(tombstone)
        }
        return nil
    }

    /// Refuses names OneDrive refuses.
    static func checkName(_ name: String) throws(GraphFailure) {
        let forbidden = Set("\"*:<>?/\\|")
        guard !name.isEmpty, name != ".", name != "..", !name.contains(where: { forbidden.contains($0) }),
            name.utf8.count <= 400
        else {
            throw GraphFailure(
                status: 400, code: "invalidRequest", message: "The provided name contains invalid characters: \(name)")
        }
    }
}
