import Foundation
import MockSupport

/// The MIME type of Drive folders.
let folderMimeType = "application/vnd.google-apps.folder"

/// Which space a file lives in.
enum DriveSpace: String, Sendable, Codable {
    /// My Drive.
    case drive
    /// The hidden application data folder.
    case appDataFolder
}

/// Bytes in the blob store with every hash Drive reports.
struct StoredContent: Sendable, Codable {
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
struct DriveRevision: Sendable, Codable {
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
struct DriveNode: Sendable, Codable {
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

    /// Every member a `drive#file` resource can have.
    static let resourceKeys = [
        "kind", "id", "name", "mimeType", "starred", "trashed", "explicitlyTrashed", "spaces", "version",
        "createdTime", "modifiedTime", "modifiedByMeTime", "modifiedByMe", "viewedByMe", "viewedByMeTime",
        "ownedByMe", "owners", "lastModifyingUser", "shared", "isAppAuthorized", "hasThumbnail", "thumbnailVersion",
        "copyRequiresWriterPermission", "writersCanShare", "viewersCanCopyContent", "quotaBytesUsed", "webViewLink",
        "iconLink", "parents", "appProperties", "properties", "description", "trashedTime", "trashingUser", "size",
        "md5Checksum", "sha256Checksum", "sha1Checksum", "headRevisionId", "originalFilename", "webContentLink",
        "fileExtension", "fullFileExtension",
    ]

    /// The `drive#file` resource; `effectivelyTrashed` includes trash inherited from a folder.
    /// - Parameter fields: The selection the answer will apply: members it would cut are not
    ///   built at all (a listing page asks for a few of some thirty). Everything by default.
    func resource(effectivelyTrashed: Bool, fields: FieldMask = .all) -> [String: Any] {
        var file: [String: Any] = [:]
        let everything = fields.isEmpty || fields.selectsAll
        for key in Self.resourceKeys where everything || fields.members[key] != nil {
            if let value = member(key, effectivelyTrashed: effectivelyTrashed) { file[key] = value }
        }
        return file
    }

    /// One member of the `drive#file` resource (one of ``resourceKeys``), or `nil` when this file
    /// has none by that name.
    func member(_ key: String, effectivelyTrashed: Bool) -> Any? {
        switch key {
        case "kind": return "drive#file"
        case "id": return id
        case "name": return name
        case "mimeType": return mimeType
        case "starred": return starred
        case "trashed": return effectivelyTrashed
        case "explicitlyTrashed": return explicitlyTrashed
        case "spaces": return [space.rawValue]
        case "version": return String(version)
        case "createdTime": return DriveTime.format(createdTime)
        case "modifiedTime", "modifiedByMeTime", "viewedByMeTime": return DriveTime.format(modifiedTime)
        case "modifiedByMe", "viewedByMe", "ownedByMe", "isAppAuthorized", "writersCanShare", "viewersCanCopyContent":
            return true
        case "shared", "hasThumbnail", "copyRequiresWriterPermission": return false
        case "owners": return [Self.user]
        case "lastModifyingUser": return Self.user
        case "thumbnailVersion": return "0"
        case "quotaBytesUsed": return String(head?.blob.size ?? 0)
        case "webViewLink": return "https://drive.google.com/file/d/\(id)/view?usp=drivesdk"
        case "iconLink": return "https://drive-thirdparty.googleusercontent.com/16/type/\(mimeType)"
        case "parents": return parents.isEmpty ? nil : parents
        case "appProperties": return appProperties.isEmpty ? nil : appProperties
        case "properties": return properties.isEmpty ? nil : properties
        case "description": return description
        case "trashedTime": return effectivelyTrashed ? trashedTime.map(DriveTime.format) : nil
        case "trashingUser": return effectivelyTrashed && trashedTime != nil ? Self.user : nil
        default: break
        }
        guard isBinary, let head else { return nil }
        switch key {
        case "size": return String(head.blob.size)
        case "md5Checksum": return head.blob.md5
        case "sha256Checksum": return head.blob.sha256
        case "sha1Checksum": return head.content.sha1
        case "headRevisionId": return head.id
        case "originalFilename": return originalFilename ?? name
        case "webContentLink": return "https://drive.google.com/uc?id=\(id)&export=download"
        case "fileExtension", "fullFileExtension":
            let extensionParts = name.split(separator: ".", omittingEmptySubsequences: false)
            guard extensionParts.count > 1, let last = extensionParts.last else { return nil }
            return key == "fileExtension" ? String(last) : extensionParts.dropFirst().joined(separator: ".")
        default: return nil
        }
    }

    /// The selection for a resource nested under `key` of an answer whose selection is `mask`
    /// (for `changes.list`, `changes` then `file`); `.all` when it takes the whole value.
    static func nestedFields(_ mask: FieldMask, _ key: String) -> FieldMask {
        if mask.isEmpty { return .all }
        if let inner = mask.members[key] { return inner.isEmpty ? .all : inner }
        return .all
    }
}
