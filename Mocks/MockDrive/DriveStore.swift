import Foundation
import MockSupport
import Synchronization

/// The mock's metadata: every file by id, their revisions and the change log. File contents
/// live in the blob store. Safe from any task (one `Mutex`).
final class DriveStore: Sendable {
    private let state: Mutex<DriveState>
    /// Called after a `withState` that changed the state (see ``DriveState/changeStamp``): the
    /// saved state's cue. `nil` when the store lives in memory only.
    private let onChange: (@Sendable () -> Void)?

    /// A store holding `state` (by default a new, empty one).
    /// - Parameter onChange: Called, outside the lock, after every `withState` that changed
    ///   the state.
    init(state: DriveState = DriveState(), onChange: (@Sendable () -> Void)? = nil) {
        self.state = Mutex(state)
        self.onChange = onChange
    }

    /// Runs `body` under the lock. Every change to the state goes through here, so a change
    /// seen here (a different ``DriveState/changeStamp`` after `body`, even one that threw) is
    /// reported to `onChange`: routes need do nothing to have their writes saved.
    func withState<T, Failure: Error>(_ body: (inout DriveState) throws(Failure) -> sending T) throws(Failure)
        -> sending T
    {
        guard let onChange else {
            return try state.withLock { (state: inout DriveState) throws(Failure) -> sending T in try body(&state) }
        }
        var changed = false
        defer { if changed { onChange() } }
        return try state.withLock { (state: inout DriveState) throws(Failure) -> sending T in
            let before = state.changeStamp
            defer { changed = state.changeStamp != before }
            return try body(&state)
        }
    }
}

/// One entry of the change log.
struct ChangeRecord: Sendable, Codable {
    /// The change's number; page tokens count in these.
    var sequence: Int64
    var fileID: String
    var time: Date
    var removed: Bool
    var space: DriveSpace
}

/// A `files.list` result and the store's generation when it was made.
struct CachedListing: Sendable {
    /// The request's query, order and spaces.
    var binding: String
    var generation: Int
    var ids: [String]
}

/// Everything the store holds.
struct DriveState: Sendable {
    var nodes = NodeTable()
    let rootID: String
    let appDataID: String
    /// The change log, by ascending sequence.
    private(set) var changes: [ChangeRecord] = []
    /// The sequence of each file's newest change: `changes.list` reports a file only there.
    private var newestChange: [String: Int64] = [:]
    /// The number the next change gets.
    private(set) var nextSequence: Int64 = 1
    /// The last `files.list` result, kept while nothing is written so that paging through a
    /// large folder sorts it once.
    private var cachedListing: CachedListing?
    private(set) var versionCounter: Int64 = 0
    private(set) var serialCounter = 0

    init() {
        rootID = "0A" + Self.randomID(count: 17) + "Uk9PVA"
        appDataID = "1" + Self.randomID(count: 31)
        let now = DriveTime.now()
        nodes[rootID] = DriveNode(
            id: rootID, serial: 0, name: "My Drive", mimeType: folderMimeType, parents: [], space: .drive,
            createdTime: now, modifiedTime: now, version: 1
        )
        nodes[appDataID] = DriveNode(
            id: appDataID, serial: 0, name: "Application Data", mimeType: folderMimeType, parents: [],
            space: .appDataFolder, createdTime: now, modifiedTime: now, version: 1
        )
        versionCounter = 1
    }

    /// A state restored from a saved one (see `DriveSnapshot`).
    /// - Parameters:
    ///   - nodes: Every node, the two roots included.
    ///   - changes: The change log, by ascending sequence.
    init(
        rootID: String, appDataID: String, nodes: [DriveNode], changes: [ChangeRecord], nextSequence: Int64,
        versionCounter: Int64, serialCounter: Int
    ) {
        self.rootID = rootID
        self.appDataID = appDataID
        for node in nodes { self.nodes[node.id] = node }
        self.changes = changes
        for change in changes { newestChange[change.fileID] = change.sequence }
        self.nextSequence = nextSequence
        self.versionCounter = versionCounter
        self.serialCounter = serialCounter
    }

    /// Counters that move on every change worth saving: a write to `nodes` (which every
    /// change of a file or revision is), a change recorded, new versions and serials. A cached
    /// listing does not move them.
    var changeStamp: ChangeStamp {
        ChangeStamp(
            generation: nodes.generation, nextSequence: nextSequence, versionCounter: versionCounter,
            serialCounter: serialCounter)
    }

    /// The counters of ``changeStamp``.
    struct ChangeStamp: Equatable {
        var generation: Int
        var nextSequence: Int64
        var versionCounter: Int64
        var serialCounter: Int
    }

    /// Whether the newest change of a file is the one with this sequence number.
    func isNewestChange(_ record: ChangeRecord) -> Bool {
        newestChange[record.fileID] == record.sequence
    }

    /// Random characters of the alphabet Drive ids use.
    static func randomID(count: Int) -> String {
        // URL-safe Base64 has Drive's id alphabet; one draw of random bytes, not one per letter.
        String(RandomText.make(bytes: (count * 3 + 3) / 4).prefix(count))
    }

    /// The real id for an id or alias (`root`, `appDataFolder`), or `nil` if unknown.
    func resolve(_ raw: String) -> String? {
        switch raw {
        case "root": rootID
        case "appDataFolder": appDataID
        default: nodes[raw] == nil ? nil : raw
        }
    }

    /// Whether an id names one of the two roots.
    func isRoot(_ id: String) -> Bool { id == rootID || id == appDataID }

    /// The node for an id or alias.
    /// - Throws: 404 `notFound` naming `raw`.
    func node(_ raw: String) throws(DriveFailure) -> DriveNode {
        guard let id = resolve(raw), let node = nodes[id] else { throw DriveFailure(.fileNotFound(raw)) }
        return node
    }

    /// Whether the node or any folder above it is in the trash.
    func isTrashed(_ id: String) -> Bool {
        var current: String? = id
        var seen: Set<String> = []
        while let next = current, seen.insert(next).inserted, let node = nodes[next] {
            if node.trashed { return true }
            current = node.parents.first
        }
        return false
    }

    /// The full resource of a node.
    func resource(_ node: DriveNode, fields: FieldMask = .all) -> [String: Any] {
        node.resource(effectivelyTrashed: isTrashed(node.id), fields: fields)
    }

    /// Every node below a folder, nearest first (each level by id).
    func descendants(of id: String) -> [String] {
        var result: [String] = []
        var seen: Set<String> = [id]
        var position = 0
        var queue = [id]
        while position < queue.count {
            let next = queue[position]
            position += 1
            for child in nodes.children(of: next).sorted() where seen.insert(child).inserted {
                result.append(child)
                queue.append(child)
            }
        }
        return result
    }

    mutating func nextVersion() -> Int64 {
        versionCounter += 1
        return versionCounter
    }

    mutating func nextSerial() -> Int {
        serialCounter += 1
        return serialCounter
    }

    /// Adds a change for a file.
    mutating func recordChange(
        _ id: String, removed: Bool = false, space: DriveSpace? = nil, time: Date = DriveTime.now()
    ) {
        let space = space ?? nodes[id]?.space ?? .drive
        changes.append(ChangeRecord(sequence: nextSequence, fileID: id, time: time, removed: removed, space: space))
        newestChange[id] = nextSequence
        nextSequence += 1
    }

    /// One page of `changes.list` from `token` on: each file once, at its newest change, oldest
    /// first. Costs the page plus the older changes it skips, not the whole log.
    /// - Returns: The page, and the token of the next page when more changes follow it.
    func changePage(from token: Int64, pageSize: Int, spaces: Set<DriveSpace>, includeRemoved: Bool) -> (
        records: [ChangeRecord], nextToken: Int64?
    ) {
        // Sequences ascend with the index: find the first at or after the token.
        var low = 0
        var high = changes.count
        while low < high {
            let middle = low + (high - low) / 2
            if changes[middle].sequence < token { low = middle + 1 } else { high = middle }
        }
        var page: [ChangeRecord] = []
        page.reserveCapacity(min(pageSize, changes.count - low))
        for record in changes[low...]
        where newestChange[record.fileID] == record.sequence && spaces.contains(record.space)
            && (includeRemoved || !(record.removed || nodes[record.fileID] == nil))
        {
            if page.count == pageSize {
                return (page, page.last.map { $0.sequence + 1 })
            }
            page.append(record)
        }
        return (page, nil)
    }

    /// The ids `files.list` answers with, in order: files of the given spaces that match the
    /// filter, the roots excepted. A filter on a parent (and a name) reads only that folder's
    /// index; the result stays cached under `binding` until the next write.
    mutating func matchingFiles(_ filter: DriveQuery, ordering: FileOrdering, spaces: Set<DriveSpace>, binding: String)
        -> [String]
    {
        if let cached = cachedListing, cached.binding == binding, cached.generation == nodes.generation {
            return cached.ids
        }
        let candidates: [DriveNode]
        if let parent = filter.requiredParent {
            guard let parentID = resolve(parent) else { return [] }
            let ids = filter.requiredName.map { nodes.named($0, in: parentID) } ?? nodes.children(of: parentID)
            candidates = ids.compactMap { nodes[$0] }
        } else {
            candidates = Array(nodes.values)
        }
        let ids = candidates.filter { node in
            !isRoot(node.id) && spaces.contains(node.space)
                && filter.matches(.init(node: node, trashed: isTrashed(node.id), resolve: resolve))
        }.sorted(by: ordering.precedes).map(\.id)
        cachedListing = CachedListing(binding: binding, generation: nodes.generation, ids: ids)
        return ids
    }

    /// A new opaque revision id.
    static func newRevisionID() -> String {
        "0B" + randomID(count: 40)
    }

    /// Checks that a parent id names a live folder and returns its real id and space.
    func parentFolder(_ raw: String) throws(DriveFailure) -> (id: String, space: DriveSpace) {
        let parent = try node(raw)
        guard parent.isFolder else {
            throw DriveFailure(
                DriveErrorBody(
                    code: 400, reason: "invalid", message: "The specified parent is not a folder.", location: "parents",
                    locationType: "other"
                ))
        }
        return (parent.id, parent.space)
    }
}
