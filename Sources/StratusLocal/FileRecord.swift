import Foundation
import Stratus

/// What the local store knows about one path: its kept versions, newest first, which of them
/// is current (none after a delete), its custom metadata and its stable identifier.
///
/// Stored as JSON in `.stratus/records/<key>.json` and replaced atomically on every change.
struct FileRecord: Codable, Sendable {
    /// One kept version.
    struct Version: Codable, Sendable {
        /// The version's number; it is never reused for this path.
        var number: Int64
        /// The content's size in bytes.
        var size: Int64
        /// When the version was written.
        var modified: Date
        /// The content's SHA-256 in lowercase hexadecimal.
        var sha256: String

        /// The version as the ``Service`` API describes it.
        var fileVersion: FileVersion {
            FileVersion(
                id: id, size: size, modified: modified, contentHash: ContentHash(algorithm: .sha256, value: sha256))
        }

        /// The version's identifier: its number as text.
        var id: VersionID { VersionID(String(number)) }
    }

    /// The path, exactly as the caller first wrote it.
    var path: RemotePath
    /// The stable identifier reported as ``RemoteFile/id``; it survives deletes and restores.
    var id: String
    /// The number the next version will get.
    var nextVersionNumber: Int64
    /// The number of the current version, or `nil` when the file is deleted.
    var currentVersionNumber: Int64?
    /// The kept versions, newest first.
    var versions: [Version]
    /// The caller's custom metadata.
    var metadata: [String: String]

    /// A record for a path that never held a file.
    init(path: RemotePath, id: String) {
        self.path = path
        self.id = id
        self.nextVersionNumber = 1
        self.currentVersionNumber = nil
        self.versions = []
        self.metadata = [:]
    }

    /// Whether a file is there now.
    var exists: Bool { currentVersion != nil }

    /// The current version, or `nil` when the file is deleted.
    var currentVersion: Version? {
        currentVersionNumber.flatMap { number in versions.first { $0.number == number } }
    }

    /// A kept version by identifier (compared as text, as preconditions compare it, so `"07"`
    /// is not version 7).
    func version(_ id: VersionID) -> Version? {
        versions.first { $0.id == id }
    }

    /// The file as the ``Service`` API describes it, at one of its versions.
    func remoteFile(at version: Version) -> RemoteFile {
        RemoteFile(
            path: path,
            id: id,
            size: version.size,
            modified: version.modified,
            contentHash: ContentHash(algorithm: .sha256, value: version.sha256),
            version: version.id,
            metadata: metadata
        )
    }

    /// Adds a new version and makes it current.
    /// - Parameters:
    ///   - size: The content's size.
    ///   - sha256: The content's hash.
    ///   - date: When it was written.
    ///   - limit: How many versions to keep; the oldest beyond it are dropped.
    /// - Returns: The new version and the versions dropped to stay within the limit.
    mutating func addVersion(size: Int64, sha256: String, at date: Date, keeping limit: Int) -> (
        added: Version, pruned: [Version]
    ) {
        let version = Version(number: nextVersionNumber, size: size, modified: date, sha256: sha256)
        nextVersionNumber += 1
        versions.insert(version, at: 0)
        currentVersionNumber = version.number
        let pruned = versions.count > limit ? Array(versions[limit...]) : []
        versions.removeLast(pruned.count)
        return (version, pruned)
    }
}
