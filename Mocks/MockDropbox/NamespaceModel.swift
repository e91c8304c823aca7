import Foundation
import MockSupport

/// One stored version of a file.
struct FileRevision: Sendable, Codable {
    /// The rev: lowercase hex, at least 9 characters, unique.
    var rev: String
    /// The contents.
    var blob: BlobInfo
    /// The time the client claimed.
    var clientModified: Date
    /// The time the mock stored it.
    var serverModified: Date
    /// Custom properties committed with it.
    var propertyGroups: [PropertyGroupValue] = []
}

/// A file or folder the namespace knows about, possibly deleted.
struct NamespaceNode: Sendable, Codable {
    /// File or folder.
    enum Kind: String, Sendable, Codable { case file, folder }

    /// Its kind.
    var kind: Kind
    /// `id:...`, stable across renames and revisions.
    var id: String
    /// Its path, case kept.
    var path: DropboxPath
    /// Every revision, oldest first (files only).
    var revisions: [FileRevision] = []
    /// Whether it was deleted; deleted files keep their revisions.
    var isDeleted = false
    /// When it was deleted.
    var deletedAt: Date?

    /// The newest revision.
    var current: FileRevision? { revisions.last }

    /// Metadata as Dropbox sends it: `FileMetadata`, `FolderMetadata` or `DeletedMetadata`.
    /// - Parameter tagged: Whether to add the polymorphic `.tag`.
    func metadata(tagged: Bool) -> [String: Any] {
        var result: [String: Any] = [
            "name": path.name, "path_lower": path.key, "path_display": path.display,
        ]
        if isDeleted {
            result[".tag"] = "deleted"
            return result
        }
        switch kind {
        case .folder:
            result["id"] = id
            if tagged { result[".tag"] = "folder" }
        case .file:
            if let current {
                result.merge(Self.fileFields(id: id, revision: current)) { _, new in new }
            }
            if tagged { result[".tag"] = "file" }
        }
        return result
    }

    /// `FileMetadata` of one revision at a path.
    func metadata(of revision: FileRevision) -> [String: Any] {
        var result: [String: Any] = ["name": path.name, "path_lower": path.key, "path_display": path.display]
        result.merge(Self.fileFields(id: id, revision: revision)) { _, new in new }
        return result
    }

    private static func fileFields(id: String, revision: FileRevision) -> [String: Any] {
        [
            "id": id,
            "rev": revision.rev,
            "size": NSNumber(value: revision.blob.size),
            "content_hash": revision.blob.contentHash,
            "client_modified": DropboxTimestamp.format(revision.clientModified),
            "server_modified": DropboxTimestamp.format(revision.serverModified),
            "is_downloadable": true,
        ]
    }
}

/// A lookup that failed, as a `LookupError` tag.
enum LookupProblem: String, Error {
    case notFound = "not_found"
    case notFile = "not_file"
    case notFolder = "not_folder"
    case malformedPath = "malformed_path"

    /// The `LookupError` union.
    var union: [String: Any] { [".tag": rawValue] }
}

/// A write that failed, as a `WriteError`.
enum WriteProblem: Error {
    /// `conflict` with `file`, `folder` or `file_ancestor`.
    case conflict(String)
    /// `malformed_path`.
    case malformedPath

    /// The `WriteError` union.
    var union: [String: Any] {
        switch self {
        case .conflict(let kind): FilesError.conflict(kind)
        case .malformedPath: [".tag": "malformed_path"]
        }
    }
}

/// How an upload commit treats an existing file (`WriteMode`).
enum WriteMode: Sendable {
    case add
    case overwrite
    case update(String)
}

/// The arguments of a commit (`CommitInfo`).
struct CommitRequest: Sendable {
    var path: DropboxPath
    var mode: WriteMode
    var autorename: Bool
    var clientModified: Date?
    var strictConflict: Bool
    var propertyGroups: [PropertyGroupValue] = []
}
