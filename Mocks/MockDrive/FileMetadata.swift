import Foundation

/// The writable fields of a `drive#file` request body, checked as Drive checks them.
struct FileMetadata: Sendable {
    var id: String?
    var name: String?
    var mimeType: String?
    var parents: [String]?
    /// New values; a `nil` value removes the key.
    var appProperties: [String: String?]?
    /// New values; a `nil` value removes the key.
    var properties: [String: String?]?
    /// `.some(nil)` clears the description.
    var description: String??
    var starred: Bool?
    var trashed: Bool?
    var modifiedTime: Date?
    var createdTime: Date?
    var originalFilename: String?

    /// Fields Drive accepts and the mock keeps or ignores.
    private static let accepted: Set<String> = [
        "kind", "id", "name", "mimeType", "parents", "appProperties", "properties", "description", "starred",
        "trashed", "modifiedTime", "createdTime", "originalFilename", "viewedByMeTime", "writersCanShare",
        "copyRequiresWriterPermission", "folderColorRgb", "contentHints", "contentRestrictions",
        "inheritedPermissionsDisabled", "downloadRestrictions", "shortcutDetails",
    ]

    /// Fields of the `File` schema a client may not set.
    private static let readOnly: Set<String> = [
        "size", "md5Checksum", "sha1Checksum", "sha256Checksum", "version", "headRevisionId", "quotaBytesUsed",
        "trashedTime", "trashingUser", "owners", "spaces", "capabilities", "webContentLink", "webViewLink",
        "iconLink", "hasThumbnail", "thumbnailLink", "thumbnailVersion", "explicitlyTrashed", "isAppAuthorized",
        "lastModifyingUser", "modifiedByMe", "modifiedByMeTime", "ownedByMe", "permissions", "permissionIds",
        "shared", "sharedWithMeTime", "sharingUser", "viewedByMe", "fileExtension", "fullFileExtension",
        "driveId", "teamDriveId", "exportLinks", "hasAugmentedPermissions", "imageMediaMetadata",
        "videoMediaMetadata", "labelInfo", "linkShareMetadata", "resourceKey", "viewersCanCopyContent",
        "clientEncryptionDetails",
    ]

    /// Reads a request body.
    /// - Parameters:
    ///   - object: The decoded JSON object.
    ///   - isUpdate: Whether this is `files.update`, where `parents` is not writable.
    /// - Throws: ``DriveFailure``: 400 for unknown fields, wrong types or bad values (such as
    ///   a `name` with a control character: `invalid` at `name`, location type `other`); 403
    ///   `fieldNotWritable` for read-only fields.
    init(json object: [String: Any], isUpdate: Bool) throws(DriveFailure) {
        for key in object.keys.sorted() where !Self.accepted.contains(key) {
            if Self.readOnly.contains(key) {
                throw DriveFailure(
                    DriveErrorBody(
                        code: 403, reason: "fieldNotWritable",
                        message: "The resource body includes fields which are not directly writable."
                    ))
            }
            throw DriveFailure(
                DriveErrorBody(
                    code: 400, reason: "badRequest",
                    message: "Invalid JSON payload received. Unknown name \"\(key)\": Cannot find field."
                ))
        }
        if isUpdate, object["parents"] != nil {
            throw DriveFailure(
                DriveErrorBody(
                    code: 403, reason: "fieldNotWritable",
                    message:
                        "The parents field is not directly writable in update requests. Use the addParents and removeParents parameters instead."
                ))
        }
        id = try Self.string(object, "id")
        name = try Self.string(object, "name")
        // Drive names are not paths: `/`, `.` and `..` are ordinary characters in them, but a
        // C0 control character or DEL is refused as an invalid value of the body's `name`.
        if let name, name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw Self.invalid("name")
        }
        mimeType = try Self.string(object, "mimeType")
        originalFilename = try Self.string(object, "originalFilename")
        if let raw = object["parents"], !(raw is NSNull) {
            guard let list = raw as? [Any], let ids = list as? [String] else { throw Self.invalid("parents") }
            parents = ids
        }
        appProperties = try Self.map(object, "appProperties")
        properties = try Self.map(object, "properties")
        if let raw = object["description"] {
            if raw is NSNull {
                description = .some(nil)
            } else if let text = raw as? String {
                description = .some(text)
            } else {
                throw Self.invalid("description")
            }
        }
        starred = try Self.bool(object, "starred")
        trashed = try Self.bool(object, "trashed")
        modifiedTime = try Self.time(object, "modifiedTime")
        createdTime = try Self.time(object, "createdTime")
    }

    /// Metadata with no field set.
    init() {}

    private static func invalid(_ field: String) -> DriveFailure {
        DriveFailure(
            DriveErrorBody(
                code: 400, reason: "invalid", message: "Invalid value for field '\(field)'.", location: field,
                locationType: "other"))
    }

    private static func string(_ object: [String: Any], _ field: String) throws(DriveFailure) -> String? {
        guard let raw = object[field], !(raw is NSNull) else { return nil }
        guard let text = raw as? String else { throw invalid(field) }
        return text
    }

    private static func bool(_ object: [String: Any], _ field: String) throws(DriveFailure) -> Bool? {
        guard let raw = object[field], !(raw is NSNull) else { return nil }
        guard DriveJSON.isBoolean(raw), let number = raw as? NSNumber else { throw invalid(field) }
        return number.boolValue
    }

    private static func time(_ object: [String: Any], _ field: String) throws(DriveFailure) -> Date? {
        guard let text = try string(object, field) else { return nil }
        guard let date = DriveTime.parse(text) else { throw invalid(field) }
        return DriveTime.truncated(date)
    }

    private static func map(_ object: [String: Any], _ field: String) throws(DriveFailure) -> [String: String?]? {
        guard let raw = object[field], !(raw is NSNull) else { return nil }
        guard let entries = raw as? [String: Any] else { throw invalid(field) }
        var result: [String: String?] = [:]
        for (key, value) in entries {
            if value is NSNull {
                result[key] = .some(nil)
            } else if let text = value as? String {
                // Drive limits a key plus its value to 124 bytes.
                guard key.utf8.count + text.utf8.count <= 124, !key.isEmpty else { throw invalid(field) }
                result[key] = .some(text)
            } else {
                throw invalid(field)
            }
        }
        return result
    }
}
