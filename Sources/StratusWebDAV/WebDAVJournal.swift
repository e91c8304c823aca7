import Foundation
import Stratus

/// One entry of the adapter's change journal, `.stratus/journal/<stamp>`: a write or delete this
/// adapter made, so the emulated feed can report changes a listing no longer shows (a file
/// written and deleted between two reads of the feed).
struct WebDAVJournalEntry: Codable, Sendable, Equatable {
    /// `u` for a write, `d` for a delete.
    var kind: String
    var path: String
    var version: String?
    var size: Int64?
    var modified: Double?
    var sha256: String?
    var md5: String?
    var id: String?

    private enum CodingKeys: String, CodingKey {
        case kind = "k"
        case path = "p"
        case version = "v"
        case size = "s"
        case modified = "m"
        case sha256 = "h"
        case md5 = "5"
        case id = "i"
    }

    init(_ change: Change) {
        switch change {
        case .upserted(let file):
            kind = "u"
            path = file.path.string
            version = file.version.rawValue
            size = file.size
            modified = file.modified.timeIntervalSince1970
            sha256 = file.contentHash?.algorithm == .sha256 ? file.contentHash?.value : nil
            md5 = file.contentHash?.algorithm == .md5 ? file.contentHash?.value : nil
            id = file.id
        case .deleted(let path):
            kind = "d"
            self.path = path.string
        }
    }

    /// The change the entry records, or `nil` for an entry that cannot be read.
    var change: Change? {
        guard let path = try? RemotePath(path), !path.isRoot else { return nil }
        if kind == "d" { return .deleted(path) }
        guard kind == "u", let version, let size else { return nil }
        let hash =
            sha256.map { ContentHash(algorithm: .sha256, value: $0) }
            ?? md5.map { ContentHash(algorithm: .md5, value: $0) }
        return .upserted(
            RemoteFile(
                path: path, id: id ?? path.string, size: size, modified: Date(timeIntervalSince1970: modified ?? 0),
                contentHash: hash, version: VersionID(version)
            ))
    }
}

/// The change-feed snapshot an instance last stored or loaded, so that a poll that finds
/// nothing new neither fetches its token's snapshot again nor writes the same one back.
struct RememberedFeedSnapshot: Sendable {
    /// The snapshot's digest, as its token names it.
    var digest: String
    var snapshot: WebDAVFeedSnapshot
    /// When this instance last wrote it to the server, if it did.
    var written: ContinuousClock.Instant?
}

/// The state a change token stands for, stored by the adapter as
/// `.stratus/feed/<digest>.json` (content-addressed, so the token is short): the last journal
/// entry read, and every file's version, size and time and every folder's ETag at that point.
struct WebDAVFeedSnapshot: Codable, Sendable, Equatable {
    /// The last journal entry taken into account.
    var journal: String
    /// Files by path: version, size, modified (Unix seconds).
    var files: [String: FileState]
    /// Folder ETags by path (`""` for the root).
    var folders: [String: String]

    struct FileState: Codable, Sendable, Equatable {
        var version: String
        var size: Int64
        var modified: Double

        private enum CodingKeys: String, CodingKey {
            case version = "v"
            case size = "s"
            case modified = "m"
        }
    }

    private enum CodingKeys: String, CodingKey {
        case journal = "j"
        case files = "f"
        case folders = "d"
    }

    /// The document's bytes (keys sorted, so equal snapshots have equal digests).
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }
}
