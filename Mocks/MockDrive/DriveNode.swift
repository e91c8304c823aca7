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

    /// The full `drive#file` resource; `effectivelyTrashed` includes trash inherited from a folder.
    func resource(effectivelyTrashed: Bool) -> [String: Any] {
        var file: [String: Any] = [
            "kind": "drive#file",
            "id": id,
            "name": name,
            "mimeType": mimeType,
            "starred": starred,
            "trashed": effectivelyTrashed,
            "explicitlyTrashed": explicitlyTrashed,
            "spaces": [space.rawValue],
            "version": String(version),
            "createdTime": DriveTime.format(createdTime),
            "modifiedTime": DriveTime.format(modifiedTime),
            "modifiedByMeTime": DriveTime.format(modifiedTime),
            "modifiedByMe": true,
            "viewedByMe": true,
            "viewedByMeTime": DriveTime.format(modifiedTime),
            "ownedByMe": true,
            "owners": [Self.user],
            "lastModifyingUser": Self.user,
            "shared": false,
            "isAppAuthorized": true,
            "hasThumbnail": false,
            "thumbnailVersion": "0",
            "copyRequiresWriterPermission": false,
            "writersCanShare": true,
            "viewersCanCopyContent": true,
            "quotaBytesUsed": String(head?.blob.size ?? 0),
            "webViewLink": "https://drive.google.com/file/d/\(id)/view?usp=drivesdk",
            "iconLink": "https://drive-thirdparty.googleusercontent.com/16/type/\(mimeType)",
        ]
        if !parents.isEmpty { file["parents"] = parents }
        if !appProperties.isEmpty { file["appProperties"] = appProperties }
        if !properties.isEmpty { file["properties"] = properties }
        if let description { file["description"] = description }
        if let trashedTime, effectivelyTrashed {
            file["trashedTime"] = DriveTime.format(trashedTime)
            file["trashingUser"] = Self.user
        }
        if isBinary, let head {
            file["size"] = String(head.blob.size)
            file["md5Checksum"] = head.blob.md5
            file["sha256Checksum"] = head.blob.sha256
            file["sha1Checksum"] = head.content.sha1
            file["headRevisionId"] = head.id
            file["originalFilename"] = originalFilename ?? name
            file["webContentLink"] = "https://drive.google.com/uc?id=\(id)&export=download"
            let extensionParts = name.split(separator: ".", omittingEmptySubsequences: false)
            if extensionParts.count > 1, let last = extensionParts.last {
                file["fileExtension"] = String(last)
                file["fullFileExtension"] = extensionParts.dropFirst().joined(separator: ".")
            }
        }
        return file
    }
}
