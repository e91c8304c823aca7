import Foundation
import MockSupport
import Synchronization

/// The mock's metadata: every file and folder by case-insensitive path, their revisions,
/// and a change log that list-folder cursors point into. Safe from any task (one `Mutex`).
final class Namespace: Sendable {
    struct State: Sendable {
        var nodes: [String: NamespaceNode] = [:] {
            // Without `oldValue`, writes stay in place (no copy of the dictionary).
            didSet { generation &+= 1 }
        }
        /// Changes on every write to `nodes`; a cached listing is good while it is unchanged.
        private(set) var generation = 0
        var pathOfID: [String: String] = [:]
        var pathOfRev: [String: String] = [:]
        /// (sequence number, path key) of every change, oldest first.
        private(set) var changes: [(sequence: Int, key: String)] = []
        /// The sequence of each path's newest change: `list_folder/continue` reports a path there.
        private(set) var newestChange: [String: Int] = [:]
        private(set) var sequence = 0
        /// The last initial listing, so that paging through it sorts the folder once.
        var cachedListing: CachedListing?
        var epoch = 1
        var revCounter: UInt64 = 0x1_0000_0000
        var idCounter = 0
    }

    private let state: Mutex<State>
    /// Called after a `withState` that changed the state (see ``State/changeStamp``): the
    /// saved state's cue. `nil` when the namespace lives in memory only.
    private let onChange: (@Sendable () -> Void)?

    /// A namespace holding `state` (empty by default).
    /// - Parameter onChange: Called, outside the lock, after every `withState` that changed
    ///   the state.
    init(state: State = State(), onChange: (@Sendable () -> Void)? = nil) {
        self.state = Mutex(state)
        self.onChange = onChange
    }

    /// The cursor epoch; ``invalidateCursors()`` bumps it.
    var epoch: Int { state.withLock { $0.epoch } }
    /// The newest change's sequence number.
    var sequence: Int { state.withLock { $0.sequence } }

    /// Makes every cursor issued so far answer `reset`.
    func invalidateCursors() {
        withState { $0.epoch += 1 }
    }

    /// Runs `body` under the lock. Every change to the state goes through here, so a change
    /// seen here (a different ``State/changeStamp`` after `body`, even one that threw) is
    /// reported to `onChange`: routes need do nothing to have their writes saved.
    func withState<T: Sendable>(_ body: (inout State) throws -> T) rethrows -> T {
        guard let onChange else { return try state.withLock { try body(&$0) } }
        var changed = false
        defer { if changed { onChange() } }
        return try state.withLock { state in
            let before = state.changeStamp
            defer { changed = state.changeStamp != before }
            return try body(&state)
        }
    }
}

extension Namespace.State {
    /// Counters that move on every change worth saving: a write to `nodes` (which every
    /// change of a file or folder is), a change recorded, new ids and revs, and the epoch.
    /// A cached listing does not move them.
    var changeStamp: ChangeStamp {
        ChangeStamp(
            generation: generation, sequence: sequence, epoch: epoch, revCounter: revCounter, idCounter: idCounter)
    }

    /// The counters of ``changeStamp``.
    struct ChangeStamp: Equatable {
        var generation: Int
        var sequence: Int
        var epoch: Int
        var revCounter: UInt64
        var idCounter: Int
    }

    /// A state restored from a saved one (see `NamespaceSnapshot`).
    /// - Parameter changes: The change log, by ascending sequence.
    init(
        nodes: [String: NamespaceNode], pathOfID: [String: String], pathOfRev: [String: String],
        changes: [(sequence: Int, key: String)], sequence: Int, epoch: Int, revCounter: UInt64, idCounter: Int
    ) {
        self.init()
        self.nodes = nodes
        self.pathOfID = pathOfID
        self.pathOfRev = pathOfRev
        self.changes = changes
        for change in changes { newestChange[change.key] = change.sequence }
        self.sequence = sequence
        self.epoch = epoch
        self.revCounter = revCounter
        self.idCounter = idCounter
    }
}

extension Namespace.State {
    mutating func record(_ key: String) {
        sequence += 1
        changes.append((sequence, key))
        newestChange[key] = sequence
    }

    mutating func newRev() -> String {
        revCounter += 1
        let random = UInt16.random(in: 0...UInt16.max)
        let suffix = String(random, radix: 16)
        return String(revCounter, radix: 16) + String(repeating: "0", count: 4 - suffix.count) + suffix
    }

    mutating func newID() -> String {
        idCounter += 1
        let random = (0..<12).map { _ in
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-".randomElement() ?? "a"
        }
        return "id:" + String(random) + String(idCounter)
    }

    /// The live node at a path (not deleted), or `nil`.
    func live(_ path: DropboxPath) -> NamespaceNode? {
        guard let node = nodes[path.key], !node.isDeleted else { return nil }
        return node
    }

    /// Resolves a path, `id:...` or `rev:...` to a live node and, for `rev:`, that revision.
    func lookup(_ raw: String) throws(LookupProblem) -> (node: NamespaceNode, revision: FileRevision?) {
        if raw.hasPrefix("id:") {
            guard let key = pathOfID[raw], let node = nodes[key], !node.isDeleted else { throw .notFound }
            return (node, nil)
        }
        if raw.hasPrefix("rev:") {
            let rev = String(raw.dropFirst(4))
            guard let key = pathOfRev[rev], let node = nodes[key],
                let revision = node.revisions.first(where: { $0.rev == rev })
            else { throw .notFound }
            return (node, revision)
        }
        let path: DropboxPath
        do { path = try DropboxPath(parsing: raw, allowRoot: false) } catch { throw .malformedPath }
        guard let node = live(path) else { throw .notFound }
        return (node, nil)
    }

    /// Creates any missing ancestor folders of `path`.
    /// - Throws: `conflict(file_ancestor)` when an ancestor is a file.
    mutating func makeAncestors(of path: DropboxPath) throws(WriteProblem) {
        for ancestor in path.ancestors {
            if let node = live(ancestor) {
                guard node.kind == .folder else { throw .conflict("file_ancestor") }
                continue
            }
            let id = nodes[ancestor.key].flatMap { $0.kind == .folder ? $0.id : nil } ?? newID()
            nodes[ancestor.key] = NamespaceNode(kind: .folder, id: id, path: ancestor)
            pathOfID[id] = ancestor.key
            record(ancestor.key)
        }
    }

    /// Commits uploaded bytes as a new revision, following `WriteMode`, `autorename` and
    /// `strict_conflict`.
    /// - Returns: The node and the revision now current.
    mutating func commit(_ request: CommitRequest, blob: BlobInfo) throws(WriteProblem) -> (NamespaceNode, FileRevision)
    {
        var target = request.path
        if let existing = live(target) {
            if existing.kind == .folder {
                guard request.autorename else { throw .conflict("folder") }
                target = freeName(near: target, suffix: nil)
            } else if let current = existing.current {
                let identical = current.blob.sha256 == blob.sha256 && !request.strictConflict
                switch request.mode {
                case .overwrite:
                    if identical { return (existing, current) }
                case .add:
                    if identical { return (existing, current) }
                    guard request.autorename else { throw .conflict("file") }
                    target = freeName(near: target, suffix: nil)
                case .update(let rev):
                    if current.rev != rev {
                        guard request.autorename else { throw .conflict("file") }
                        target = freeName(near: target, suffix: "conflicted copy")
                    } else if identical {
                        return (existing, current)
                    }
                }
            }
        } else if case .update = request.mode, request.strictConflict, nodes[target.key] != nil {
            throw .conflict("file")
        }
        try makeAncestors(of: target)
        let now = DropboxTimestamp.now()
        let revision = FileRevision(
            rev: newRev(), blob: blob, clientModified: request.clientModified ?? now, serverModified: now,
            propertyGroups: request.propertyGroups
        )
        var node: NamespaceNode
        if let previous = nodes[target.key], previous.kind == .file {
            node = previous
            node.isDeleted = false
            node.deletedAt = nil
            node.path = target
        } else {
            node = NamespaceNode(kind: .file, id: newID(), path: target)
        }
        node.revisions.append(revision)
        nodes[target.key] = node
        pathOfID[node.id] = target.key
        pathOfRev[revision.rev] = target.key
        record(target.key)
        return (node, revision)
    }

    /// A free name next to `path`: `name (1).ext`, `name (2).ext`, ... or
    /// `name (conflicted copy).ext`.
    func freeName(near path: DropboxPath, suffix: String?) -> DropboxPath {
        let name = path.name
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let stem = dot.map { String(name[..<$0]) } ?? name
        let ext = dot.map { String(name[$0...]) } ?? ""
        var attempt = 0
        while true {
            attempt += 1
            let label = suffix.map { attempt == 1 ? $0 : "\($0) \(attempt)" } ?? String(attempt)
            let candidate = path.renamed("\(stem) (\(label))\(ext)")
            if live(candidate) == nil { return candidate }
        }
    }

    /// Deletes a file, or a folder with everything in it.
    /// - Returns: The deleted node, as it was.
    mutating func delete(_ raw: String, parentRev: String?) throws(DeleteProblem) -> NamespaceNode {
        let found: NamespaceNode
        do { found = try lookup(raw).node } catch { throw .lookup(error) }
        if let parentRev, found.current?.rev != parentRev {
            throw .write(.conflict(found.kind == .folder ? "folder" : "file"))
        }
        let now = DropboxTimestamp.now()
        var keys = [found.path.key]
        if found.kind == .folder {
            keys += nodes.values.filter { !$0.isDeleted && found.path.contains($0.path, recursive: true) }.map(
                \.path.key)
        }
        for key in keys.sorted(by: >) {
            nodes[key]?.isDeleted = true
            nodes[key]?.deletedAt = now
            record(key)
        }
        return found
    }
}

/// The entries of an initial listing, in order, and the generation they were read at.
struct CachedListing: Sendable {
    /// The listing's folder key, recursion and deletion flags.
    var scope: String
    var generation: Int
    var keys: [String]
}

/// Why a delete failed: `path_lookup` or `path_write`.
enum DeleteProblem: Error {
    case lookup(LookupProblem)
    case write(WriteProblem)
}
