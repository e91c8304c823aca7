import Synchronization

/// A `fields` partial-response selection, such as `nextPageToken,files(id,name)`, `files/id`
/// or `*`, applied to a JSON resource built from dictionaries and arrays.
struct FieldMask: Sendable, Equatable {
    /// Selected names and what is selected inside each; an empty inner mask selects the whole value.
    var members: [String: FieldMask]
    /// Whether `*` selects every member.
    var selectsAll: Bool

    /// A mask that selects everything.
    static let all = FieldMask(members: [:], selectsAll: true)

    init(members: [String: FieldMask] = [:], selectsAll: Bool = false) {
        self.members = members
        self.selectsAll = selectsAll
    }

    /// Why a selection could not be parsed.
    struct ParseError: Error {}

    /// A parsed `fields` value, remembered: clients send the same few selections with every
    /// request, and parsing one cost an eighth of the mock's CPU under 16 concurrent uploads.
    /// - Throws: ``ParseError`` for unbalanced parentheses or empty names.
    static func parsed(_ text: String) throws(ParseError) -> FieldMask {
        if let known = parsedMasks.withLock({ $0[text] }) { return known }
        let mask = try FieldMask(parsing: text)
        parsedMasks.withLock { known in
            // Selections are the clients' to choose: keep a bounded memory.
            if known.count >= 256 { known.removeAll() }
            known[text] = mask
        }
        return mask
    }

    private static let parsedMasks = Mutex<[String: FieldMask]>([:])

    /// Parses a `fields` value.
    /// - Throws: ``ParseError`` for unbalanced parentheses or empty names.
    init(parsing text: String) throws(ParseError) {
        var parser = Parser(characters: Array(text.filter { !$0.isWhitespace }))
        self = try parser.list()
        guard parser.index == parser.characters.count else { throw ParseError() }
    }

    private struct Parser {
        let characters: [Character]
        var index = 0

        mutating func list() throws(ParseError) -> FieldMask {
            var mask = FieldMask()
            repeat {
                try selection(into: &mask)
            } while take(",")
            return mask
        }

        mutating func selection(into mask: inout FieldMask) throws(ParseError) {
            var path: [String] = []
            repeat {
                let start = index
                while index < characters.count, !"/,()".contains(characters[index]) { index += 1 }
                guard index > start else { throw ParseError() }
                path.append(String(characters[start..<index]))
            } while take("/")
            var inner = FieldMask()
            if take("(") {
                inner = try list()
                guard take(")") else { throw ParseError() }
            }
            for (position, name) in path.enumerated().reversed() where position > 0 {
                inner =
                    name == "*"
                    ? FieldMask(members: inner.members, selectsAll: true) : FieldMask(members: [name: inner])
            }
            mask.merge(path[0], inner)
        }

        mutating func take(_ character: Character) -> Bool {
            guard index < characters.count, characters[index] == character else { return false }
            index += 1
            return true
        }
    }

    private mutating func merge(_ name: String, _ inner: FieldMask) {
        if name == "*" {
            selectsAll = true
            return
        }
        if let existing = members[name] {
            if existing.isEmpty || inner.isEmpty {
                members[name] = FieldMask()
            } else {
                var merged = existing
                for (key, value) in inner.members { merged.merge(key, value) }
                merged.selectsAll = merged.selectsAll || inner.selectsAll
                members[name] = merged
            }
        } else {
            members[name] = inner
        }
    }

    /// Whether the mask selects a whole value (nothing was named inside it).
    var isEmpty: Bool { members.isEmpty && !selectsAll }

    /// The names the mask selects that `schema` does not know, as `a/b` paths.
    func unknownNames(_ schema: FieldSchema) -> [String] {
        var unknown: [String] = []
        for (name, inner) in members.sorted(by: { $0.key < $1.key }) {
            guard let child = schema.members[name] else {
                if !schema.isOpen { unknown.append(name) }
                continue
            }
            unknown += inner.unknownNames(child).map { "\(name)/\($0)" }
        }
        return unknown
    }

    /// The parts of a JSON value the mask selects.
    func apply(_ value: Any) -> Any {
        if isEmpty { return value }
        if let array = value as? [Any] {
            return array.map { apply($0) }
        }
        guard let object = value as? [String: Any] else { return value }
        if selectsAll && members.isEmpty { return object }
        var result: [String: Any] = [:]
        for (key, member) in object {
            if let inner = members[key] {
                result[key] = inner.apply(member)
            } else if selectsAll {
                result[key] = member
            }
        }
        return result
    }
}

/// The field names a resource has, for checking `fields` selections.
struct FieldSchema: Sendable {
    var members: [String: FieldSchema]
    /// A map (`appProperties`) or an object the mock does not describe: any name is fine.
    var isOpen: Bool

    init(_ members: [String: FieldSchema] = [:], isOpen: Bool = false) {
        self.members = members
        self.isOpen = isOpen
    }

    /// A schema whose members are leaves (or open objects for the names in `open`).
    static func leaves(_ names: [String], open: Set<String> = []) -> FieldSchema {
        var members: [String: FieldSchema] = [:]
        for name in names { members[name] = FieldSchema(isOpen: open.contains(name)) }
        return FieldSchema(members)
    }

    static let file = FieldSchema.leaves(
        [
            "appProperties", "capabilities", "clientEncryptionDetails", "contentHints", "contentRestrictions",
            "copyRequiresWriterPermission", "createdTime", "description", "downloadRestrictions", "driveId",
            "explicitlyTrashed", "exportLinks", "fileExtension", "folderColorRgb", "fullFileExtension",
            "hasAugmentedPermissions", "hasThumbnail", "headRevisionId", "iconLink", "id", "imageMediaMetadata",
            "inheritedPermissionsDisabled", "isAppAuthorized", "kind", "labelInfo", "lastModifyingUser",
            "linkShareMetadata", "md5Checksum", "mimeType", "modifiedByMe", "modifiedByMeTime", "modifiedTime", "name",
            "originalFilename", "ownedByMe", "owners", "parents", "permissionIds", "permissions", "properties",
            "quotaBytesUsed", "resourceKey", "sha1Checksum", "sha256Checksum", "shared", "sharedWithMeTime",
            "sharingUser", "shortcutDetails", "size", "spaces", "starred", "teamDriveId", "thumbnailLink",
            "thumbnailVersion", "trashed", "trashedTime", "trashingUser", "version", "videoMediaMetadata", "viewedByMe",
            "viewedByMeTime", "viewersCanCopyContent", "webContentLink", "webViewLink", "writersCanShare",
        ],
        open: [
            "appProperties", "properties", "capabilities", "contentHints", "exportLinks", "imageMediaMetadata",
            "videoMediaMetadata", "labelInfo", "lastModifyingUser", "owners", "permissions", "sharingUser",
            "trashingUser", "shortcutDetails", "linkShareMetadata", "downloadRestrictions", "clientEncryptionDetails",
            "contentRestrictions",
        ])

    static let fileList = FieldSchema([
        "kind": FieldSchema(), "nextPageToken": FieldSchema(), "incompleteSearch": FieldSchema(), "files": file,
    ])

    static let change = FieldSchema([
        "kind": FieldSchema(), "changeType": FieldSchema(), "time": FieldSchema(), "removed": FieldSchema(),
        "fileId": FieldSchema(), "file": file, "type": FieldSchema(), "driveId": FieldSchema(),
        "teamDriveId": FieldSchema(),
        "drive": FieldSchema(isOpen: true), "teamDrive": FieldSchema(isOpen: true),
    ])

    static let changeList = FieldSchema([
        "kind": FieldSchema(), "nextPageToken": FieldSchema(), "newStartPageToken": FieldSchema(), "changes": change,
    ])

    static let startPageToken = FieldSchema.leaves(["kind", "startPageToken"])

    static let revision = FieldSchema.leaves(
        [
            "exportLinks", "id", "keepForever", "kind", "lastModifyingUser", "md5Checksum", "mimeType", "modifiedTime",
            "originalFilename", "publishAuto", "published", "publishedLink", "publishedOutsideDomain", "size",
        ], open: ["exportLinks", "lastModifyingUser"])

    static let revisionList = FieldSchema([
        "kind": FieldSchema(), "nextPageToken": FieldSchema(), "revisions": revision,
    ])
}
