import Foundation
import StratusAdapterKit

/// A Dropbox `Metadata` value: `FileMetadata`, `FolderMetadata` or `DeletedMetadata`.
///
/// Routes typed as `Metadata` carry `.tag`; routes typed as `FileMetadata` (upload, download,
/// restore, list_revisions entries) carry none, and then ``kind`` is `nil`.
struct DropboxMetadata: Decodable, Sendable, Equatable {
    /// `file`, `folder`, `deleted`, or `nil` when the route's type is `FileMetadata`.
    var kind: String?
    var name: String
    var pathLower: String?
    var pathDisplay: String?
    var id: String?
    var rev: String?
    var size: Int64?
    var serverModified: String?
    var contentHash: String?
    /// The property groups `include_property_groups` asked for.
    var propertyGroups: [DropboxPropertyGroup]?

    enum CodingKeys: String, CodingKey {
        case kind = ".tag"
        case name
        case pathLower = "path_lower"
        case pathDisplay = "path_display"
        case id, rev, size
        case serverModified = "server_modified"
        case contentHash = "content_hash"
        case propertyGroups = "property_groups"
    }

    /// Whether this describes a file (tagged `file`, or untagged with a `rev`).
    var isFile: Bool { kind == "file" || (kind == nil && rev != nil) }

    /// Parses Dropbox's `%Y-%m-%dT%H:%M:%SZ` timestamp.
    static func date(_ text: String) -> Date? {
        RFC3339Time.parse(text)
    }
}

/// The result of `list_folder` and `list_folder/continue`.
struct DropboxListFolderResult: Decodable, Sendable {
    var entries: [DropboxMetadata]
    var cursor: String
    var hasMore: Bool

    enum CodingKeys: String, CodingKey {
        case entries, cursor
        case hasMore = "has_more"
    }
}

/// The result of `list_folder/get_latest_cursor`.
struct DropboxCursorResult: Decodable, Sendable {
    var cursor: String
}

/// The result of `list_folder/longpoll`: whether the cursor has changes, and how long Dropbox
/// asks to wait before the next long poll.
struct DropboxLongpollResult: Decodable, Sendable {
    var changes: Bool
    var backoff: Int64?
}

/// The result of `list_revisions`.
struct DropboxRevisionsResult: Decodable, Sendable {
    var isDeleted: Bool
    var entries: [DropboxMetadata]
    var hasMore: Bool

    enum CodingKeys: String, CodingKey {
        case isDeleted = "is_deleted"
        case entries
        case hasMore = "has_more"
    }
}

/// The result of `upload_session/start`.
struct DropboxSessionStartResult: Decodable, Sendable {
    var sessionID: String

    enum CodingKeys: String, CodingKey {
        case sessionID = "session_id"
    }
}

/// The result of `delete_v2`.
struct DropboxDeleteResult: Decodable, Sendable {
    var metadata: DropboxMetadata
}
