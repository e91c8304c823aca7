import Foundation

/// A page of `files.list`.
struct DriveFileList: Decodable, Sendable {
    var files: [DriveFile]
    var nextPageToken: String?

    enum CodingKeys: String, CodingKey { case files, nextPageToken }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        files = try container.decodeIfPresent([DriveFile].self, forKey: .files) ?? []
        nextPageToken = try container.decodeIfPresent(String.self, forKey: .nextPageToken)
    }
}

/// One entry of `changes.list`.
struct DriveChange: Decodable, Sendable {
    var changeType: String?
    var fileId: String?
    var removed: Bool
    var file: DriveFile?

    enum CodingKeys: String, CodingKey { case changeType, fileId, removed, file }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        changeType = try container.decodeIfPresent(String.self, forKey: .changeType)
        fileId = try container.decodeIfPresent(String.self, forKey: .fileId)
        removed = try container.decodeIfPresent(Bool.self, forKey: .removed) ?? false
        file = try container.decodeIfPresent(DriveFile.self, forKey: .file)
    }
}

/// A page of `changes.list`: `nextPageToken` while more pages remain, `newStartPageToken` on
/// the last page.
struct DriveChangeList: Decodable, Sendable {
    var changes: [DriveChange]
    var nextPageToken: String?
    var newStartPageToken: String?

    enum CodingKeys: String, CodingKey { case changes, nextPageToken, newStartPageToken }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        changes = try container.decodeIfPresent([DriveChange].self, forKey: .changes) ?? []
        nextPageToken = try container.decodeIfPresent(String.self, forKey: .nextPageToken)
        newStartPageToken = try container.decodeIfPresent(String.self, forKey: .newStartPageToken)
    }
}

/// The answer of `changes.getStartPageToken`.
struct DriveStartPageToken: Decodable, Sendable {
    var startPageToken: String
}

/// A Drive `Revision`.
struct DriveRevision: Decodable, Sendable, Equatable {
    var id: String
    var size: Int64?
    var md5Checksum: String?
    var modifiedTime: Date?

    /// The partial-response field list for one revision.
    static let fields = "id,size,md5Checksum,modifiedTime"

    enum CodingKeys: String, CodingKey { case id, size, md5Checksum, modifiedTime }

    init(id: String, size: Int64?, md5Checksum: String?, modifiedTime: Date?) {
        self.id = id
        self.size = size
        self.md5Checksum = md5Checksum
        self.modifiedTime = modifiedTime
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        size = try DriveJSON.int64(container, .size)
        md5Checksum = try container.decodeIfPresent(String.self, forKey: .md5Checksum)?.lowercased()
        modifiedTime = try DriveJSON.date(container, .modifiedTime)
    }
}

/// A page of `revisions.list`.
struct DriveRevisionList: Decodable, Sendable {
    var revisions: [DriveRevision]
    var nextPageToken: String?

    enum CodingKeys: String, CodingKey { case revisions, nextPageToken }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        revisions = try container.decodeIfPresent([DriveRevision].self, forKey: .revisions) ?? []
        nextPageToken = try container.decodeIfPresent(String.self, forKey: .nextPageToken)
    }
}
