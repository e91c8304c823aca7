import Foundation
import Stratus
import StratusAdapterKit

/// A Drive `File` resource, as far as the adapter asks for it (see ``fields``).
///
/// Drive sends int64 values (`size`, `version`) as JSON strings and times as RFC 3339 with
/// milliseconds; both are read here, and a number where a string is expected is accepted too.
struct DriveFile: DriveAnswer, Equatable {
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

    /// The version a precondition is checked against: `headRevisionId`, or `?` (which no
    /// revision of Drive's is) for a file without one.
    var currentVersion: VersionID { VersionID(headRevisionId ?? "?") }

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

    /// Reads a `File` resource; members the adapter does not use are skipped, and `null` reads
    /// as absent.
    init(json reader: inout JSONReader) throws(JSONReadError) {
        var id: String?
        var file = DriveFile(id: "", name: "")
        try reader.readObject { member, reader throws(JSONReadError) in
            switch member {
            case "id": id = try reader.readStringUnlessNull()
            case "name": file.name = try reader.readStringUnlessNull() ?? ""
            case "mimeType": file.mimeType = try reader.readStringUnlessNull()
            case "parents":
                file.parents =
                    try reader.readNull()
                    ? nil : reader.readArray { element throws(JSONReadError) in try element.readString() }
            case "size": file.size = try DriveJSON.int64(&reader)
            case "md5Checksum": file.md5Checksum = try reader.readStringUnlessNull()?.lowercased()
            case "headRevisionId": file.headRevisionId = try reader.readStringUnlessNull()
            case "modifiedTime": file.modifiedTime = try DriveJSON.date(&reader)
            case "createdTime": file.createdTime = try DriveJSON.date(&reader)
            case "trashed": file.trashed = try reader.readNull() ? nil : reader.readBool()
            case "appProperties": file.appProperties = try DriveJSON.properties(&reader)
            default: try reader.skipValue()
            }
        }
        guard let id else { throw reader.error("a file with an id") }
        file.id = id
        self = file
    }
}

/// A JSON answer of Drive's, read with a ``JSONReader`` (one pass, nothing built but the
/// answer: a 1,000-entry change page through `JSONDecoder` cost most of the feed's CPU).
protocol DriveAnswer: Sendable {
    /// Reads the answer's value.
    init(json reader: inout JSONReader) throws(JSONReadError)
}

/// Decoding helpers for Drive's JSON conventions.
enum DriveJSON {
    /// An int64 sent as a JSON string (Drive's convention) or as a number; `nil` for `null`.
    static func int64(_ reader: inout JSONReader) throws(JSONReadError) -> Int64? {
        switch try reader.peek() {
        case .null:
            _ = try reader.readNull()
            return nil
        case .string:
            guard let value = Int64(try reader.readString()) else { throw reader.error("an int64 in decimal digits") }
            return value
        default: return try reader.readInt64()
        }
    }

    /// An RFC 3339 time such as `2024-01-01T00:00:00.000Z`, with or without fractional
    /// seconds; `nil` for `null`.
    static func date(_ reader: inout JSONReader) throws(JSONReadError) -> Date? {
        guard let text = try reader.readStringUnlessNull() else { return nil }
        guard let date = parseDate(text) else { throw reader.error("an RFC 3339 time") }
        return date
    }

    /// String properties; a `null` value is how Drive reports a removed property in some
    /// answers, and such members are dropped.
    static func properties(_ reader: inout JSONReader) throws(JSONReadError) -> [String: String]? {
        guard try !reader.readNull() else { return nil }
        var properties: [String: String] = [:]
        try reader.readObject { name, reader throws(JSONReadError) in
            properties[name] = try reader.readStringUnlessNull()
        }
        return properties
    }

    /// An array of answers, such as a page's `files`; `null` reads as an empty array.
    static func list<Answer: DriveAnswer>(_ reader: inout JSONReader) throws(JSONReadError) -> [Answer] {
        try reader.readNull() ? [] : reader.readArray { element throws(JSONReadError) in try Answer(json: &element) }
    }

    /// Reads a whole answer of a type Drive sends.
    static func decode<Answer: DriveAnswer>(_ type: Answer.Type, from data: Data) throws(JSONReadError) -> Answer {
        try JSONReader.read(data) { reader throws(JSONReadError) in try Answer(json: &reader) }
    }

    /// Parses an RFC 3339 time, with or without fractional seconds, `Z` or a numeric offset.
    static func parseDate(_ text: String) -> Date? {
        RFC3339Time.parse(text)
    }
}
