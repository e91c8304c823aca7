import Foundation
import StratusAdapterKit

/// A Drive `File` resource, as far as the adapter asks for it (see ``fields``).
///
/// Drive sends int64 values (`size`, `version`) as JSON strings and times as RFC 3339 with
/// milliseconds; both are decoded here, and a number where a string is expected is accepted
/// too.
struct DriveFile: Decodable, Sendable, Equatable {
    var id: String
    var name: String
    var mimeType: String?
    var parents: [String]?
    var size: Int64?
    var md5Checksum: String?
    var headRevisionId: String?
    var modifiedTime: Date?
    var createdTime: Date?
    var trashed: Bool?
    var appProperties: [String: String]?

    /// The MIME type of a folder.
    static let folderMimeType = "application/vnd.google-apps.folder"

    /// The partial-response field list for one file.
    static let fields =
        "id,name,mimeType,parents,size,md5Checksum,headRevisionId,modifiedTime,createdTime,trashed,appProperties"

    /// Whether this is a folder.
    var isFolder: Bool { mimeType == DriveFile.folderMimeType }

    /// Whether this is a Google Docs editors file (Docs, Sheets, ...), which has no binary
    /// content to download and no `md5Checksum`.
    var isGoogleNative: Bool { (mimeType ?? "").hasPrefix("application/vnd.google-apps.") }

    enum CodingKeys: String, CodingKey {
        case id, name, mimeType, parents, size, md5Checksum, headRevisionId, modifiedTime, createdTime, trashed,
            appProperties
    }

    init(
        id: String, name: String, mimeType: String? = nil, parents: [String]? = nil, size: Int64? = nil,
        md5Checksum: String? = nil, headRevisionId: String? = nil, modifiedTime: Date? = nil,
        createdTime: Date? = nil, trashed: Bool? = nil, appProperties: [String: String]? = nil
    ) {
        self.id = id
        self.name = name
        self.mimeType = mimeType
        self.parents = parents
        self.size = size
        self.md5Checksum = md5Checksum
        self.headRevisionId = headRevisionId
        self.modifiedTime = modifiedTime
        self.createdTime = createdTime
        self.trashed = trashed
        self.appProperties = appProperties
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        name = try container.decodeIfPresent(String.self, forKey: .name) ?? ""
        mimeType = try container.decodeIfPresent(String.self, forKey: .mimeType)
        parents = try container.decodeIfPresent([String].self, forKey: .parents)
        size = try DriveJSON.int64(container, .size)
        md5Checksum = try container.decodeIfPresent(String.self, forKey: .md5Checksum)?.lowercased()
        headRevisionId = try container.decodeIfPresent(String.self, forKey: .headRevisionId)
        modifiedTime = try DriveJSON.date(container, .modifiedTime)
        createdTime = try DriveJSON.date(container, .createdTime)
        trashed = try container.decodeIfPresent(Bool.self, forKey: .trashed)
        // A null value for a key is how Drive reports a removed property in some answers.
        appProperties = try container.decodeIfPresent([String: String?].self, forKey: .appProperties)?.compactMapValues
        { $0 }
    }
}

/// Decoding helpers for Drive's JSON conventions.
enum DriveJSON {
    /// An int64 sent as a JSON string (Drive's convention) or as a number.
    static func int64<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws -> Int64? {
        if let text = try? container.decodeIfPresent(String.self, forKey: key) {
            guard let value = Int64(text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "\(text.debugDescription) is not an int64")
            }
            return value
        }
        return try container.decodeIfPresent(Int64.self, forKey: key)
    }

    /// An RFC 3339 time such as `2024-01-01T00:00:00.000Z`, with or without fractional seconds.
    static func date<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws -> Date? {
        guard let text = try container.decodeIfPresent(String.self, forKey: key) else { return nil }
        guard let date = parseDate(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "\(text.debugDescription) is not an RFC 3339 time")
        }
        return date
    }

    /// Parses an RFC 3339 time, with or without fractional seconds, `Z` or a numeric offset.
    static func parseDate(_ text: String) -> Date? {
        RFC3339Time.parse(text)
    }
}
