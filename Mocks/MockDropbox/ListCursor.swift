import Foundation

/// What a `list_folder` cursor remembers. Sent to clients as base64url JSON; opaque to them.
struct ListCursor: Codable, Sendable {
    /// The namespace epoch when issued; an older epoch answers `reset`.
    var epoch: Int
    /// Changes after this sequence number are still to be returned.
    var sequence: Int
    /// The folder's path key (`""` is the root).
    var folder: String
    /// Whether listing is recursive.
    var recursive: Bool
    /// Whether deleted entries are listed.
    var includeDeleted: Bool
    /// Page size.
    var limit: Int
    /// During the initial listing, the number of entries already returned; `nil` once
    /// the cursor follows changes.
    var offset: Int?
    /// The template ids of `include_property_groups`, if asked.
    var propertyFilter: [String]?

    /// The token clients see.
    var token: String {
        let data = (try? JSONEncoder().encode(self)) ?? Data()
        return "AAH"
            + data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Decodes a token, or `nil` when it is not one of ours.
    init?(token: String) {
        guard token.hasPrefix("AAH") else { return nil }
        var base64 = String(token.dropFirst(3))
            .replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64),
            let cursor = try? JSONDecoder().decode(ListCursor.self, from: data)
        else { return nil }
        self = cursor
    }

    /// Creates a cursor.
    init(epoch: Int, sequence: Int, folder: String, recursive: Bool, includeDeleted: Bool, limit: Int, offset: Int?) {
        self.epoch = epoch
        self.sequence = sequence
        self.folder = folder
        self.recursive = recursive
        self.includeDeleted = includeDeleted
        self.limit = limit
        self.offset = offset
    }
}

/// A page of a listing: `ListFolderResult`.
struct ListPage: Sendable {
    var entries: [NamespaceNode]
    var cursor: ListCursor
    var hasMore: Bool

    var json: [String: Any] {
        [
            "entries": entries.map { node in
                MockDropboxServer.withPropertyGroups(
                    node.metadata(tagged: true), revision: node.isDeleted || node.kind == .folder ? nil : node.current,
                    filter: cursor.propertyFilter
                )
            }, "cursor": cursor.token, "has_more": hasMore,
        ]
    }
}

extension Namespace.State {
    /// Whether a path key lies in the cursor's folder.
    private func inScope(_ key: String, of cursor: ListCursor) -> Bool {
        guard let node = nodes[key] else { return false }
        if cursor.folder.isEmpty {
            return cursor.recursive || !node.path.key.dropFirst().contains("/")
        }
        guard let folder = nodes[cursor.folder] else { return false }
        return folder.path.contains(node.path, recursive: cursor.recursive)
    }

    /// Checks that a folder exists for listing.
    func checkFolder(_ key: String) throws(LookupProblem) {
        guard !key.isEmpty else { return }
        guard let node = nodes[key], !node.isDeleted else { throw .notFound }
        guard node.kind == .folder else { throw .notFolder }
    }

    /// The next page of the initial listing, sorted by path. The sorted listing is kept until
    /// the next write, so each further page costs its own entries only.
    mutating func listingPage(_ cursor: ListCursor) -> ListPage {
        let offset = cursor.offset ?? 0
        let scope = "\(cursor.recursive ? "r" : "-")\(cursor.includeDeleted ? "d" : "-")\(cursor.folder)"
        let keys: [String]
        if let cached = cachedListing, cached.scope == scope, cached.generation == generation {
            keys = cached.keys
        } else {
            keys = nodes.compactMap { key, node in
                inScope(key, of: cursor) && (cursor.includeDeleted || !node.isDeleted) ? key : nil
            }.sorted()
            cachedListing = CachedListing(scope: scope, generation: generation, keys: keys)
        }
        let page = keys.dropFirst(offset).prefix(cursor.limit)
        var next = cursor
        let consumed = offset + page.count
        next.offset = consumed < keys.count ? consumed : nil
        return ListPage(entries: page.compactMap { nodes[$0] }, cursor: next, hasMore: next.offset != nil)
    }

    /// Whether anything changed in the cursor's scope after its sequence number.
    func hasChanges(after cursor: ListCursor) -> Bool {
        changes.reversed().prefix(while: { $0.sequence > cursor.sequence }).contains { inScope($0.key, of: cursor) }
    }

    /// Changes after the cursor: the current state of each changed path, deletions as
    /// `deleted` entries, oldest change first. Costs the page plus the older changes it skips,
    /// not the whole log.
    func changesPage(_ cursor: ListCursor) -> ListPage {
        // Sequences ascend with the index: find the first after the cursor's.
        var low = 0
        var high = changes.count
        while low < high {
            let middle = low + (high - low) / 2
            if changes[middle].sequence <= cursor.sequence { low = middle + 1 } else { high = middle }
        }
        var page: [(sequence: Int, key: String)] = []
        var hasMore = false
        for change in changes[low...]
        where newestChange[change.key] == change.sequence && inScope(change.key, of: cursor) {
            if page.count == cursor.limit {
                hasMore = true
                break
            }
            page.append(change)
        }
        var next = cursor
        next.sequence = hasMore ? (page.last?.sequence ?? cursor.sequence) : sequence
        return ListPage(entries: page.compactMap { nodes[$0.key] }, cursor: next, hasMore: hasMore)
    }
}
