import Foundation
import Stratus
import StratusDigest
import StratusFileSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The local backend's engine: synchronous, blocking operations on the folder layout that
/// ``StoreLayout`` describes. ``LocalService`` runs them off the Swift concurrency pool.
///
/// Records are only ever replaced by `rename(2)`, so reading one needs no lock. Every change,
/// and every read of the journal or of a version's content, holds the store lock (`flock(2)` on `.stratus/lock`).
struct LocalStore: Sendable {
    let layout: StoreLayout
    /// The lock file every change holds exclusively.
    let lockPath: String
    let journal: ChangeJournal
    /// The most versions kept per file.
    let maximumVersions: Int
    /// The most changes in one page of the change feed.
    let changePageSize: Int

    /// Opens the store at a root folder, creating the folder (but not its parent) and the state
    /// folder when they are missing.
    /// - Parameters:
    ///   - root: The root folder's path.
    ///   - maximumVersions: The most versions kept per file.
    ///   - changePageSize: The most changes in one page of the change feed.
    /// - Throws: ``ServiceError`` (`invalidConfiguration`) when the root is not a usable folder,
    ///   ``FileSystemError`` when the state folder cannot be set up.
    init(root: String, maximumVersions: Int, changePageSize: Int) throws {
        let layout = StoreLayout(root: root)
        self.layout = layout
        self.lockPath = layout.lock
        self.journal = ChangeJournal(path: layout.journal, preparationFolder: layout.staging)
        self.maximumVersions = maximumVersions
        self.changePageSize = changePageSize

        switch try FileSystem.kind(at: root) {
        case .directory:
            break
        case nil:
            do {
                try FileSystem.makeDirectory(root)
            } catch let error as FileSystemError where error.errorNumber == ENOENT {
                throw ServiceError(
                    .invalidConfiguration,
                    "The local root \(root) does not exist, and neither does the folder that would hold it. Create the parent folder or fix the root path.",
                    underlying: error
                )
            }
        case .regularFile, .other:
            throw ServiceError(
                .invalidConfiguration, "The local root \(root) is not a folder. Point the root at a folder.")
        }
        for folder in layout.stateFolders {
            try FileSystem.makeDirectory(folder)
        }
        let identifier = try Self.randomIdentifier()
        let journal = self.journal
        try FileLock.withLock(lockPath) {
            try journal.createIfMissing(identifier: identifier)
        }
        removeLeftovers()
    }

    /// Removes what a crashed process left behind: content it was receiving and records it had
    /// prepared. Only files older than a day go, so transfers still running elsewhere keep theirs.
    private func removeLeftovers() {
        let cutoff = Int(time(nil)) - 86_400
        let candidates: [(folder: String, prefix: String)] = [(layout.staging, ""), (layout.records, "prepared-")]
        for (folder, prefix) in candidates {
            guard let entries = try? FileSystem.entries(of: folder) else { continue }
            for (name, kind) in entries where kind == .regularFile && name.hasPrefix(prefix) {
                let path = folder + "/" + name
                if let modified = FileSystem.modificationTime(at: path), modified < cutoff {
                    FileSystem.discardFile(path)
                }
            }
        }
    }

    /// The record of a path, if the path ever held a file.
    /// - Throws: ``FileSystemError`` when the record cannot be read, ``ServiceError`` when it is
    ///   damaged.
    func record(of path: RemotePath) throws -> FileRecord? {
        guard !path.isRoot else { return nil }
        let file = layout.record(for: layout.key(for: path))
        guard let bytes = try FileSystem.contents(of: file) else { return nil }
        do {
            return try JSONDecoder().decode(FileRecord.self, from: Data(bytes))
        } catch {
            throw ServiceError(
                .localFile,
                "The record of \(path) at \(file) is damaged (\(error)). Its versions are in \(layout.versionFolder(for: layout.key(for: path)))."
            )
        }
    }

    /// Writes a record to a new file in the records folder, flushed to the disk, ready to be
    /// renamed over the current one.
    /// - Returns: The prepared file's path.
    /// - Throws: ``FileSystemError`` when it cannot be written.
    func prepare(_ record: FileRecord) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let bytes: Data
        do {
            bytes = try encoder.encode(record)
        } catch {
            throw ServiceError(
                .localFile, "Could not encode the record of \(record.path): \(error).", underlying: error)
        }
        return try AtomicFile.writeTemporary(
            Array(bytes), in: layout.records, named: "prepared-" + Self.randomIdentifier())
    }

    /// A new random identifier in hexadecimal.
    /// - Throws: ``ServiceError`` (`localFile`) when the system cannot supply random bytes.
    static func randomIdentifier() throws -> String {
        do {
            return Hex.encode(try SecureRandom.bytes(count: 12))
        } catch {
            throw ServiceError(.localFile, "Could not make a random identifier: \(error).", underlying: error)
        }
    }
}
