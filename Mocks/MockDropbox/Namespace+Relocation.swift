import Foundation

/// Why a move or copy failed, as a `RelocationError` member.
enum RelocationProblem: Error {
    /// `from_lookup`: nothing live at the source (or its path is malformed).
    case fromLookup(LookupProblem)
    /// `to`: the destination cannot be written (`conflict`, `malformed_path`).
    case to(WriteProblem)
    /// `cant_move_folder_into_itself`: a folder moved to a path inside itself.
    case cantMoveFolderIntoItself
    /// `duplicated_or_nested_paths`: a move to the very path it comes from, or a folder copied
    /// into itself.
    case duplicatedOrNestedPaths
    /// `too_many_files`: more than ``Namespace/State/relocationLimit`` files and folders.
    case tooManyFiles

    /// The `RelocationError` union.
    var union: [String: Any] {
        switch self {
        case .fromLookup(let problem): FilesError.wrap("from_lookup", problem.union)
        case .to(let problem): FilesError.wrap("to", problem.union)
        case .cantMoveFolderIntoItself: FilesError.tag("cant_move_folder_into_itself")
        case .duplicatedOrNestedPaths: FilesError.tag("duplicated_or_nested_paths")
        case .tooManyFiles: FilesError.tag("too_many_files")
        }
    }
}

/// What one entry of a `delete_batch` came to: the node as it was, or why it stayed.
enum DeleteOutcome: Sendable {
    /// Deleted; the node as it was before.
    case deleted(NamespaceNode)
    /// Refused with a `DeleteError`.
    case failed(DeleteProblem)
}

/// One entry of a `delete_batch`: a path or `id:` and the optional `parent_rev`, or a path
/// already found malformed (which fails as `path_lookup/malformed_path` without a lookup).
struct DeleteBatchItem: Sendable {
    /// The path or `id:` as sent.
    var path: String
    /// The rev the file must still have.
    var parentRev: String?
    /// Whether the path matched the pattern but is not a usable path.
    var isMalformed = false
}

/// `move_v2`, `copy_v2`, `create_folder_v2` and `delete_batch` as changes to the namespace.
extension Namespace.State {
    /// The most files and folders one move or copy may involve, as Dropbox says in
    /// `RelocationError.too_many_files` (10,000).
    static let relocationLimit = 10_000

    /// Moves or copies a file, or a folder with everything in it.
    ///
    /// A move keeps every node's id and revisions: the old paths become deleted entries and the
    /// new paths added ones in the change log, so a `list_folder/continue` cursor sees both.
    /// The history goes with the id: `list_revisions` of the new path (or the id) lists every
    /// revision, that of the old path none. The old path can be written again, as a new file.
    /// A move that changes only the case of the name renames in place. A copy makes new nodes
    /// with new ids whose one revision has the source's current content (and client-modified
    /// time and properties). Missing ancestors of the destination are created, as Dropbox does.
    /// A deleted entry at a destination path (and its history) gives way to the new node.
    /// - Parameters:
    ///   - fromRaw: The source, a path (already checked against the route's pattern) or `id:`.
    ///   - toRaw: The destination, a path (checked likewise) or the `id:` of a live node (which
    ///     names that node's path, so it conflicts unless it is the source itself).
    ///   - copy: Copy instead of moving.
    ///   - autorename: Take a free name next to an occupied destination instead of failing.
    /// - Returns: The node now at the destination.
    /// - Throws: ``RelocationProblem``; nothing changes when it throws.
    mutating func relocate(from fromRaw: String, to toRaw: String, copy: Bool, autorename: Bool)
        throws(RelocationProblem) -> NamespaceNode
    {
        let source: NamespaceNode
        do { source = try lookup(fromRaw).node } catch { throw .fromLookup(error) }
        var target = try destination(toRaw)
        let sameKey = target.key == source.path.key
        if sameKey, !copy {
            // Moving onto itself: a rename when only the case changes, else nothing to do.
            guard target.display != source.path.display else { throw .duplicatedOrNestedPaths }
        } else {
            if source.kind == .folder, source.path.contains(target, recursive: true) {
                throw copy ? .duplicatedOrNestedPaths : .cantMoveFolderIntoItself
            }
            if let existing = live(target) {
                guard autorename else { throw .to(.conflict(existing.kind == .folder ? "folder" : "file")) }
                target = freeName(near: target, suffix: nil)
            }
        }
        var members = [source]
        if source.kind == .folder {
            members += nodes.values.filter { !$0.isDeleted && source.path.contains($0.path, recursive: true) }
        }
        guard members.count <= Self.relocationLimit else { throw .tooManyFiles }
        // Every new path before anything changes, parents first.
        let depth = source.path.display.split(separator: "/").count
        var plan: [(node: NamespaceNode, path: DropboxPath)] = []
        for member in members.sorted(by: { $0.path.key < $1.path.key }) {
            let rest = member.path.display.split(separator: "/").dropFirst(depth).map { "/" + $0 }.joined()
            guard let path = try? DropboxPath(parsing: target.display + rest, allowRoot: false) else {
                throw .to(.malformedPath)
            }
            plan.append((member, path))
        }
        do { try makeAncestors(of: target) } catch { throw .to(error) }
        let now = DropboxTimestamp.now()
        if copy {
            for (member, path) in plan {
                var node = NamespaceNode(kind: member.kind, id: newID(), path: path)
                if let current = member.current, member.kind == .file {
                    node.revisions = [
                        FileRevision(
                            rev: newRev(), blob: current.blob, clientModified: current.clientModified,
                            serverModified: now, propertyGroups: current.propertyGroups)
                    ]
                }
                place(node)
            }
        } else {
            // Children before their folders, as a folder's delete records them.
            for (member, path) in plan.reversed() where member.path.key != path.key {
                nodes[member.path.key] = NamespaceNode(
                    kind: member.kind, id: newID(), path: member.path, isDeleted: true, deletedAt: now)
                record(member.path.key)
            }
            for (member, path) in plan {
                var node = member
                node.path = path
                place(node)
            }
        }
        return nodes[target.key] ?? source
    }

    /// The path a relocation's `to_path` names.
    private func destination(_ raw: String) throws(RelocationProblem) -> DropboxPath {
        if raw.hasPrefix("id:") {
            guard let key = pathOfID[raw], let node = nodes[key], node.id == raw, !node.isDeleted else {
                throw .to(.malformedPath)
            }
            return node.path
        }
        do { return try DropboxPath(parsing: raw, allowRoot: false) } catch { throw .to(.malformedPath) }
    }

    /// Puts a live node at its path, indexes its id and revisions, and records the change.
    private mutating func place(_ node: NamespaceNode) {
        let key = node.path.key
        forgetDeleted(at: key)
        nodes[key] = node
        pathOfID[node.id] = key
        for revision in node.revisions {
            pathOfRev[revision.rev] = key
        }
        record(key)
    }

    /// Drops the index entries of a deleted node that a new node is about to replace, so that
    /// its id and revs no longer lead to the path.
    private mutating func forgetDeleted(at key: String) {
        guard let old = nodes[key], old.isDeleted else { return }
        if pathOfID[old.id] == key { pathOfID[old.id] = nil }
        for revision in old.revisions where pathOfRev[revision.rev] == key {
            pathOfRev[revision.rev] = nil
        }
    }

    /// Creates a folder, and any missing ancestors.
    ///
    /// A folder created where a deleted folder was gets its id back, as an upload's missing
    /// ancestors do.
    /// - Parameters:
    ///   - path: Where.
    ///   - autorename: Take a free name next to an occupied path instead of failing.
    /// - Returns: The new folder.
    /// - Throws: ``WriteProblem``: `conflict` with `file` or `folder` when something is there,
    ///   `file_ancestor` when an ancestor is a file.
    mutating func createFolder(_ path: DropboxPath, autorename: Bool) throws(WriteProblem) -> NamespaceNode {
        var target = path
        if let existing = live(target) {
            guard autorename else { throw .conflict(existing.kind == .folder ? "folder" : "file") }
            target = freeName(near: target, suffix: nil)
        }
        try makeAncestors(of: target)
        let previous = nodes[target.key]
        let id = previous.flatMap { $0.kind == .folder ? $0.id : nil } ?? newID()
        let node = NamespaceNode(kind: .folder, id: id, path: target)
        place(node)
        return node
    }

    /// Deletes each entry of a `delete_batch` in order, as ``delete(_:parentRev:)`` does one.
    /// An entry that fails leaves the others to go ahead.
    /// - Parameter items: The entries.
    /// - Returns: What each came to, in the same order.
    mutating func deleteEach(_ items: [DeleteBatchItem]) -> [DeleteOutcome] {
        var outcomes: [DeleteOutcome] = []
        outcomes.reserveCapacity(items.count)
        for item in items {
            guard !item.isMalformed else {
                outcomes.append(.failed(.lookup(.malformedPath)))
                continue
            }
            do throws(DeleteProblem) {
                outcomes.append(.deleted(try delete(item.path, parentRev: item.parentRev)))
            } catch {
                outcomes.append(.failed(error))
            }
        }
        return outcomes
    }
}
