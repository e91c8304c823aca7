/// One entry of a change feed.
public enum Change: Hashable, Sendable, Codable {
    /// A file was created or its content or metadata changed; the value describes it now.
    case upserted(RemoteFile)
    /// The file or folder at this path was deleted.
    case deleted(RemotePath)

    /// The path the change is about.
    public var path: RemotePath {
        switch self {
        case .upserted(let file): file.path
        case .deleted(let path): path
        }
    }
}

/// A page of the change feed, as returned by ``Service/changes(since:)``.
public struct ChangePage: Hashable, Sendable, Codable {
    /// The changes, oldest first.
    public var changes: [Change]
    /// The token to pass to the next call; save it once the changes are applied.
    public var nextToken: ChangeToken
    /// Whether more changes are waiting: call again at once with ``nextToken``.
    public var hasMore: Bool

    /// Creates a page.
    public init(changes: [Change], nextToken: ChangeToken, hasMore: Bool) {
        self.changes = changes
        self.nextToken = nextToken
        self.hasMore = hasMore
    }
}
