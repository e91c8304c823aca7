import Foundation
import MockSupport

/// The MIME type of Drive folders.
let folderMimeType = "application/vnd.google-apps.folder"

/// Which space a file lives in.
enum DriveSpace: String, Sendable {
    /// My Drive.
    case drive
    /// The hidden application data folder.
    case appDataFolder
}

/// Bytes in the blob store with every hash Drive reports.
struct StoredContent: Sendable {
    /// The blob and its SHA-256, MD5 and size.
    var blob: BlobInfo
    /// Lowercase hex SHA-1 (`sha1Checksum`).
    var sha1: String

    /// No bytes: what a metadata-only create of a binary file holds.
    static let empty = StoredContent(
        blob: BlobInfo(
            sha256: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
            contentHash: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
            md5: "d41d8cd98f00b204e9800998ecf8427e",
            size: 0
        ),
        sha1: "da39a3ee5e6b4b0d3255bfef95601890afd80709"
    )
}

/// One stored version of a file's content.
struct DriveRevision: Sendable {
    /// The opaque revision id.
    var id: String
    /// The content.
    var content: StoredContent
    var blob: BlobInfo { content.blob }
    /// The content's MIME type.
    var mimeType: String
    /// When the content was written.
    var modifiedTime: Date
    /// Whether the revision is pinned.
    var keepForever: Bool
    /// The file name the content was uploaded with.
    var originalFilename: String

    /// The full `drive#revision` resource.
    var resource: [String: Any] {
        [
            "kind": "drive#revision",
            "id": id,
            "mimeType": mimeType,
            "modifiedTime": DriveTime.format(modifiedTime),
            "keepForever": keepForever,
            "published": false,
            "md5Checksum": blob.md5,
            "size": String(blob.size),
            "originalFilename": originalFilename,
            "lastModifyingUser": DriveNode.user,
        ]
    }
}

/// A file or folder and its revisions.
struct DriveNode: Sendable {
    var id: String
    /// The order of creation, for a stable default listing order.
    var serial: Int
    var name: String
    var mimeType: String
    /// Parent ids (real ids, never aliases); empty for the two roots.
    var parents: [String]
    var space: DriveSpace
    var appProperties: [String: String] = [:]
    var properties: [String: String] = [:]
    var description: String?
    var starred = false
    var createdTime: Date
    var modifiedTime: Date
    var trashed = false
    var explicitlyTrashed = false
    var trashedTime: Date?
    var version: Int64
    var originalFilename: String?
    /// Content revisions, oldest first; empty for folders and Google Docs types.
    var revisions: [DriveRevision] = []
    /// The revision that is the file's content, normally the last one.
    var headRevisionID: String?

    var isFolder: Bool { mimeType == folderMimeType }
    /// Whether the file holds binary content (not a folder nor a Google Docs type).
    var isBinary: Bool { !mimeType.hasPrefix("application/vnd.google-apps.") }
    var head: DriveRevision? { revisions.first { $0.id == headRevisionID } ?? revisions.last }

    /// The user every file belongs to.
    static var user: [String: Any] {
        [
            "kind": "drive#user", "displayName": "Stratus Mock", "emailAddress": "stratus-mock@example.com",
            "me": true, "permissionId": "00000000000000000001",
        ]
    }

    /// The `drive#file` resource; `effectivelyTrashed` includes trash inherited from a folder.
    /// - Parameter fields: The selection the answer will apply: members it would cut are not
    ///   built at all (a listing page asks for a few of some thirty). Everything by default.
    func resource(effectivelyTrashed: Bool, fields: FieldMask = .all) -> [String: Any] {
        var file: [String: Any] = [:]
        let everything = fields.isEmpty || fields.selectsAll
        func put(_ key: String, _ value: @autoclosure () -> Any) {
            if everything || fields.members[key] != nil { file[key] = value() }
        }
        put("kind", "drive#file")
        put("id", id)
        put("name", name)
        put("mimeType", mimeType)
        put("starred", starred)
        put("trashed", effectivelyTrashed)
        put("explicitlyTrashed", explicitlyTrashed)
        put("spaces", [space.rawValue])
        put("version", String(version))
        put("createdTime", DriveTime.format(createdTime))
        put("modifiedTime", DriveTime.format(modifiedTime))
        put("modifiedByMeTime", DriveTime.format(modifiedTime))
        put("modifiedByMe", true)
        put("viewedByMe", true)
        put("viewedByMeTime", DriveTime.format(modifiedTime))
        put("ownedByMe", true)
        put("owners", [Self.user])
        put("lastModifyingUser", Self.user)
        put("shared", false)
        put("isAppAuthorized", true)
        put("hasThumbnail", false)
        put("thumbnailVersion", "0")
        put("copyRequiresWriterPermission", false)
        put("writersCanShare", true)
        put("viewersCanCopyContent", true)
        put("quotaBytesUsed", String(head?.blob.size ?? 0))
        put("webViewLink", "https://drive.google.com/file/d/\(id)/view?usp=drivesdk")
        put("iconLink", "https://drive-thirdparty.googleusercontent.com/16/type/\(mimeType)")
        if !parents.isEmpty { put("parents", parents) }
        if !appProperties.isEmpty { put("appProperties", appProperties) }
        if !properties.isEmpty { put("properties", properties) }
        if let description { put("description", description) }
        if let trashedTime, effectivelyTrashed {
            put("trashedTime", DriveTime.format(trashedTime))
            put("trashingUser", Self.user)
        }
        if isBinary, let head {
            put("size", String(head.blob.size))
            put("md5Checksum", head.blob.md5)
            put("sha256Checksum", head.blob.sha256)
            put("sha1Checksum", head.content.sha1)
            put("headRevisionId", head.id)
            put("originalFilename", originalFilename ?? name)
            put("webContentLink", "https://drive.google.com/uc?id=\(id)&export=download")
            if everything || fields.members["fileExtension"] != nil || fields.members["fullFileExtension"] != nil {
                let extensionParts = name.split(separator: ".", omittingEmptySubsequences: false)
                if extensionParts.count > 1, let last = extensionParts.last {
                    put("fileExtension", String(last))
                    put("fullFileExtension", extensionParts.dropFirst().joined(separator: "."))
                }
            }
        }
        return file
    }

    /// The selection for a resource nested under `key` of an answer whose selection is `mask`
    /// (for `changes.list`, `changes` then `file`); `.all` when it takes the whole value.
    static func nestedFields(_ mask: FieldMask, _ key: String) -> FieldMask {
        if mask.isEmpty { return .all }
        if let inner = mask.members[key] { return inner.isEmpty ? .all : inner }
        return .all
    }
}
