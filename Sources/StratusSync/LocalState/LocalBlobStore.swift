import Foundation
import StratusDigest
import StratusFileSystem

/// The store's file content on this device: immutable files named by their SHA-256 under
/// `blobs/AB/ABCDEF…`, written through `staging/` and renamed into place only once complete,
/// hashed and flushed. A crash leaves at most a staging file, removed when the store opens.
/// Folders are 0700 and blobs 0400: a user's game data is private.
struct LocalBlobStore: Sendable {
    let folder: URL
    let staging: URL

    init(root: URL) throws {
        folder = root.appending(path: "blobs", directoryHint: .isDirectory)
        staging = root.appending(path: "staging", directoryHint: .isDirectory)
        do {
            try PrivateFiles.makeFolder(folder)
            if FileManager.default.fileExists(atPath: staging.path) {
                try FileManager.default.removeItem(at: staging)
            }
            try PrivateFiles.makeFolder(staging)
        } catch {
            throw SyncError(
                .localFile, "The store's file folders under \(root.path) cannot be set up: \(error)",
                underlying: SendableDescription(error))
        }
    }

    func url(of hash: String) -> URL {
        folder.appending(path: String(hash.prefix(2)), directoryHint: .isDirectory).appending(path: hash)
    }

    func contains(_ hash: String) -> Bool {
        FileManager.default.fileExists(atPath: url(of: hash).path)
    }

    /// A fresh file name in the staging folder.
    func stagingFile() -> URL {
        staging.appending(path: UUID().uuidString)
    }

    /// Copies an app's file into the store, hashing it on the way.
    /// - Returns: The content's hash and size.
    /// - Throws: ``SyncError`` (`localFile`) when the file cannot be read or copied.
    func importFile(at source: URL) throws -> RecordDocument.FileEntry {
        let staged = stagingFile()
        defer { try? FileManager.default.removeItem(at: staged) }
        let digest = SHA256Digest()
        var size: Int64 = 0
        do {
            let input = try FileHandle(forReadingFrom: source)
            defer { try? input.close() }
            guard
                FileManager.default.createFile(
                    atPath: staged.path, contents: nil, attributes: [.posixPermissions: PrivateFiles.fileMode])
            else {
                throw SyncError(.localFile, "Cannot create \(staged.path).")
            }
            let output = try FileHandle(forWritingTo: staged)
            defer { try? output.close() }
            while let piece = try input.read(upToCount: Digest.fileReadSize), !piece.isEmpty {
                piece.withUnsafeBytes { digest.update($0) }
                try output.write(contentsOf: piece)
                size += Int64(piece.count)
            }
            try output.synchronize()
        } catch {
            throw SyncError.wrapping(error, "Copying \(source.path) into the store")
        }
        let entry = RecordDocument.FileEntry(sha256: digest.finalizeHex(), size: size)
        try moveIntoPlace(staged, hash: entry.sha256)
        return entry
    }

    /// Checks a downloaded file against the hash and size a record names, then keeps it.
    /// - Throws: ``SyncError`` (`blobMismatch`) when the content is not what it is named by.
    func adoptDownload(_ staged: URL, as entry: RecordDocument.FileEntry) throws {
        defer { try? FileManager.default.removeItem(at: staged) }
        let digest = SHA256Digest()
        let size: Int64
        do {
            size = try Digest.feed(fileAt: staged, into: [digest])
        } catch {
            throw SyncError(.localFile, "Cannot read the downloaded blob \(staged.path): \(error)")
        }
        let hash = digest.finalizeHex()
        guard hash == entry.sha256, size == entry.size else {
            throw SyncError(
                .blobMismatch,
                "The blob \(entry.sha256) holds content with SHA-256 \(hash) and \(size) bytes, not \(entry.size) bytes of that hash."
            )
        }
        try moveIntoPlace(staged, hash: entry.sha256)
    }

    private func moveIntoPlace(_ staged: URL, hash: String) throws {
        let destination = url(of: hash)
        if FileManager.default.fileExists(atPath: destination.path) { return }
        do {
            try PrivateFiles.makeFolder(destination.deletingLastPathComponent())
            // Read-only, and private like everything in the store.
            try FileManager.default.setAttributes([.posixPermissions: 0o400], ofItemAtPath: staged.path)
            try AtomicFile.moveIntoPlace(staged.path, replacing: destination.path)
        } catch let error as FileSystemError {
            throw SyncError(
                .localFile, "Cannot move a blob into \(destination.path): \(error.reason).", underlying: error)
        } catch {
            throw SyncError.wrapping(error, "Keeping blob \(hash)")
        }
    }
}
