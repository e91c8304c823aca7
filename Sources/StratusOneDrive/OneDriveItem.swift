import Foundation
import Stratus
import StratusAdapterKit
import StratusDigest

/// A Graph `driveItem`, with the members this adapter reads.
struct OneDriveItem: Decodable, Sendable {
    var id: String
    var name: String?
    var size: Int64?
    var eTag: String?
    var cTag: String?
    var lastModifiedDateTime: String?
    var file: FileFacet?
    var folder: FolderFacet?
    var deleted: DeletedFacet?
    var parentReference: ParentReference?

    /// The `file` facet: present on files.
    struct FileFacet: Decodable, Sendable {
        var hashes: Hashes?
    }

    /// The hashes Graph reports for a file (base64 QuickXorHash, hex SHA-256 and SHA-1).
    struct Hashes: Decodable, Sendable {
        var quickXorHash: String?
        var sha256Hash: String?
        var sha1Hash: String?
    }

    /// The `folder` facet: present on folders.
    struct FolderFacet: Decodable, Sendable {
        var childCount: Int?
    }

    /// The `deleted` facet: present on items the delta feed reports as deleted.
    struct DeletedFacet: Decodable, Sendable {
        var state: String?
    }

    /// Where the item lives.
    struct ParentReference: Decodable, Sendable {
        var id: String?
        var path: String?
    }

    var isFolder: Bool { folder != nil }
    var isFile: Bool { file != nil && folder == nil }
    var isDeleted: Bool { deleted != nil }

    /// The modification time, or the Unix epoch when Graph gave none (or one that cannot be
    /// read).
    var modified: Date {
        lastModifiedDateTime.flatMap(RFC3339Time.parse) ?? Date(timeIntervalSince1970: 0)
    }

    /// The QuickXorHash as a ``/Stratus/ContentHash`` (hex), when Graph reported a valid one.
    var quickXorHash: ContentHash? {
        guard let text = file?.hashes?.quickXorHash, let bytes = QuickXorHash.bytes(fromBase64: text) else {
            return nil
        }
        return ContentHash(algorithm: .quickXorHash, value: Hex.encode(bytes))
    }

    /// The SHA-256 in lowercase hex, when Graph reported one (OneDrive personal does not
    /// always).
    var sha256Hex: String? {
        guard let text = file?.hashes?.sha256Hash, text.count == 64, text.allSatisfy(\.isHexDigit) else { return nil }
        return text.lowercased()
    }
}

/// A page of a Graph collection: `children`, `versions` or `delta`.
struct OneDrivePage<Element: Decodable & Sendable>: Decodable, Sendable {
    var value: [Element]
    var nextLink: String?
    var deltaLink: String?

    enum CodingKeys: String, CodingKey {
        case value
        case nextLink = "@odata.nextLink"
        case deltaLink = "@odata.deltaLink"
    }
}

/// A `driveItemVersion`.
struct OneDriveVersion: Decodable, Sendable {
    var id: String
    var size: Int64?
    var lastModifiedDateTime: String?

    var modified: Date {
        lastModifiedDateTime.flatMap(RFC3339Time.parse) ?? Date(timeIntervalSince1970: 0)
    }
}

/// An upload session (`createUploadSession`, or `GET` of its URL).
struct OneDriveUploadSessionStatus: Decodable, Sendable {
    var uploadUrl: String?
    var expirationDateTime: String?
    var nextExpectedRanges: [String]?
}

/// Reads Graph's JSON answers.
enum OneDriveJSON {
    /// Decodes an answer; anything unreadable is ``/Stratus/ServiceError/Code/invalidResponse``.
    static func decode<Result: Decodable>(_ type: Result.Type, from data: Data, action: String) throws -> Result {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw OneDriveErrorMapping.undecodable(action, String(describing: error))
        }
    }

    /// A JSON body from a dictionary of strings and nested dictionaries.
    static func body(_ object: [String: Any]) -> Data {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    }
}
