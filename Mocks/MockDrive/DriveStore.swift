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

    /// The id of a new file: the one the request body asked for (from `files.generateIds`),
    /// checked, or a new random one.
    /// - Throws: 400 `invalid` at `id` for an id Drive would not have made, 409 `duplicate`
    ///   for one in use.
    func newFileID(requested: String?) throws(DriveFailure) -> String {
        guard let requested else { return DriveState.randomID(count: 33) }
        guard requested.count >= 10,
            requested.unicodeScalars.allSatisfy({
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_")
            })
        else {
            throw DriveFailure(
                DriveErrorBody(
                    code: 400, reason: "invalid", message: "The provided file ID is not usable.", location: "id",
                    locationType: "other"))
        }
        guard nodes[requested] == nil, !isRoot(requested) else {
            throw DriveFailure(
                DriveErrorBody(code: 409, reason: "duplicate", message: "A file already exists with the provided ID."))
        }
        return requested
    }

    /// Creates a file or folder.
    /// - Parameters:
    ///   - metadata: The request body.
    ///   - content: The uploaded bytes, or `nil` for metadata only.
    ///   - contentType: The media's MIME type when content was uploaded.
    ///   - keepForever: `keepRevisionForever`.
    /// - Returns: The new node.
    mutating func create(_ metadata: FileMetadata, content: StoredContent?, contentType: String?, keepForever: Bool)
        throws(DriveFailure) -> DriveNode
    {
        let parentIDs = metadata.parents ?? []
        guard parentIDs.count <= 1 else {
            throw DriveFailure(
                DriveErrorBody(
                    code: 403, reason: "cannotAddParent", message: "Increasing the number of parents is not allowed."))
        }
        let parent = try parentFolder(parentIDs.first ?? "root")
        let id = try newFileID(requested: metadata.id)
        let now = DriveTime.now()
        let mimeType = metadata.mimeType ?? contentType ?? "application/octet-stream"
        let name = metadata.name ?? "Untitled"
        var node = DriveNode(
            id: id, serial: nextSerial(), name: name, mimeType: mimeType, parents: [parent.id], space: parent.space,
            createdTime: metadata.createdTime ?? now, modifiedTime: metadata.modifiedTime ?? now, version: nextVersion()
        )
        node.appProperties = Self.applied(metadata.appProperties, to: [:])
        node.properties = Self.applied(metadata.properties, to: [:])
        node.description = metadata.description ?? nil
        node.starred = metadata.starred ?? false
        node.originalFilename = metadata.originalFilename
        if metadata.trashed == true {
            node.trashed = true
            node.explicitlyTrashed = true
            node.trashedTime = now
        }
        if node.isBinary {
            let revision = DriveRevision(
                id: Self.newRevisionID(), content: content ?? .empty, mimeType: mimeType,
                modifiedTime: node.modifiedTime,
                keepForever: keepForever, originalFilename: metadata.originalFilename ?? name
            )
            node.revisions = [revision]
            node.headRevisionID = revision.id
        } else if let content, content.blob.size != 0 {
            throw DriveFailure(
                DriveErrorBody(
                    code: 400, reason: "badRequest",
                    message: "Media upload is not supported for this MIME type: \(mimeType)."
                ))
        }
        nodes[id] = node
        recordChange(id, time: now)
        return node
    }

    /// Applies `files.update`: metadata, parents, trash state and new content.
    mutating func update(
        _ raw: String, metadata: FileMetadata, addParents: [String], removeParents: [String],
        content: StoredContent?, contentType: String?, keepForever: Bool
    ) throws(DriveFailure) -> DriveNode {
        var node = try node(raw)
        guard !isRoot(node.id) || (content == nil && addParents.isEmpty && removeParents.isEmpty) else {
            throw DriveFailure(
                DriveErrorBody(
                    code: 403, reason: "insufficientFilePermissions",
                    message: "The user does not have sufficient permissions for this file."))
        }
        let now = DriveTime.now()
        var parents = node.parents
        for raw in removeParents {
            guard let id = resolve(raw) else { throw DriveFailure(.fileNotFound(raw)) }
            parents.removeAll { $0 == id }
        }
        for raw in addParents {
            let parent = try parentFolder(raw)
            guard parent.id != node.id, !descendants(of: node.id).contains(parent.id) else {
                throw DriveFailure(
                    DriveErrorBody(
                        code: 403, reason: "cannotAddParent",
                        message: "A file cannot be a parent of itself or of its ancestors."))
            }
            guard parent.space == node.space else {
                throw DriveFailure(
                    DriveErrorBody(
                        code: 403, reason: "cannotAddParent",
                        message: "Files cannot be moved into or out of the Application Data folder."))
            }
            if !parents.contains(parent.id) { parents.append(parent.id) }
        }
        if !isRoot(node.id) {
            guard parents.count <= 1 else {
                throw DriveFailure(
                    DriveErrorBody(
                        code: 403, reason: "cannotAddParent",
                        message: "Increasing the number of parents is not allowed."))
            }
            guard parents.count == 1 else {
                throw DriveFailure(
                    DriveErrorBody(
                        code: 403, reason: "cannotRemoveParent",
                        message: "Removing the last parent of a file is not allowed."))
            }
        }
        node.parents = parents
        if let name = metadata.name { node.name = name }
        if let mimeType = metadata.mimeType, mimeType != node.mimeType {
            guard node.isBinary, !mimeType.hasPrefix("application/vnd.google-apps.") else {
                throw DriveFailure(
                    DriveErrorBody(
                        code: 403, reason: "fieldNotWritable",
                        message: "The resource body includes fields which are not directly writable."))
            }
            node.mimeType = mimeType
        }
        node.appProperties = Self.applied(metadata.appProperties, to: node.appProperties)
        node.properties = Self.applied(metadata.properties, to: node.properties)
        if let description = metadata.description { node.description = description }
        if let starred = metadata.starred { node.starred = starred }
        if let originalFilename = metadata.originalFilename { node.originalFilename = originalFilename }
        var trashChanged = false
        if let trashed = metadata.trashed, trashed != node.trashed {
            guard !isRoot(node.id) else {
                throw DriveFailure(
                    DriveErrorBody(
                        code: 403, reason: "insufficientFilePermissions",
                        message: "The user does not have sufficient permissions for this file."))
            }
            node.trashed = trashed
            node.explicitlyTrashed = trashed
            node.trashedTime = trashed ? now : nil
            trashChanged = true
        }
        if let content {
            guard node.isBinary else {
                throw DriveFailure(
                    DriveErrorBody(
                        code: 400, reason: "badRequest", message: "Media upload is not supported for this file."))
            }
            let mimeType = metadata.mimeType ?? contentType ?? node.mimeType
            if metadata.mimeType == nil, let contentType, !contentType.hasPrefix("application/vnd.google-apps.") {
                node.mimeType = contentType
            }
            let revision = DriveRevision(
                id: Self.newRevisionID(), content: content, mimeType: mimeType,
                modifiedTime: metadata.modifiedTime ?? now,
                keepForever: keepForever,
                originalFilename: metadata.originalFilename ?? node.originalFilename ?? node.name
            )
            node.revisions.append(revision)
            node.headRevisionID = revision.id
            node.modifiedTime = metadata.modifiedTime ?? now
        } else if let modifiedTime = metadata.modifiedTime {
            node.modifiedTime = modifiedTime
        }
        node.version = nextVersion()
        nodes[node.id] = node
        recordChange(node.id, time: now)
        if trashChanged {
            for child in descendants(of: node.id) {
                let version = nextVersion()
                nodes[child]?.version = version
                recordChange(child, time: now)
            }
        }
        return node
    }

    /// Deletes a file, or a folder with everything in it, for good.
    mutating func delete(_ raw: String) throws(DriveFailure) {
        let node = try node(raw)
        guard !isRoot(node.id) else {
            throw DriveFailure(
                DriveErrorBody(
                    code: 403, reason: "insufficientFilePermissions",
                    message: "The user does not have sufficient permissions for this file."))
        }
        let now = DriveTime.now()
        for id in [node.id] + descendants(of: node.id) {
            let space = nodes[id]?.space
            nodes[id] = nil
            recordChange(id, removed: true, space: space, time: now)
        }
    }

    /// A map after a patch where `nil` values remove keys.
    static func applied(_ patch: [String: String?]?, to map: [String: String]) -> [String: String] {
        guard let patch else { return map }
        var result = map
        for (key, value) in patch {
            result[key] = value
        }
        return result
    }
}
