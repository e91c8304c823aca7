import Foundation
import Hummingbird
import NIOCore
import StratusDigest
import StratusFileSystem
import Synchronization

/// What is known about bytes stored in the blob store or received into a file. `Codable`, so a
/// mock's saved state (``PersistentState``) can name the blobs its files hold.
public struct BlobInfo: Sendable, Hashable, Codable {
    /// Lowercase hex SHA-256 of the bytes; the blob's file name.
    public var sha256: String
    /// The Dropbox content hash of the bytes.
    public var contentHash: String
    /// Lowercase hex MD5 of the bytes (Drive's `md5Checksum`).
    public var md5: String
    /// The number of bytes.
    public var size: Int64

    /// Creates a description of stored bytes.
    public init(sha256: String, contentHash: String, md5: String, size: Int64) {
        self.sha256 = sha256
        self.contentHash = contentHash
        self.md5 = md5
        self.size = size
    }
}

/// A content-addressed store of file contents on disk: each blob is a file named by the
/// SHA-256 of its bytes, written through a temporary file and a rename, so a blob is either
/// whole or absent. Bytes stream in from request bodies and out to responses, never held
/// whole in memory.
public struct BlobStore: Sendable {
    /// The folder of blobs.
    public let blobsDirectory: URL
    /// The folder of temporary files and upload sessions.
    public let scratchDirectory: URL

    /// Creates the folders under `root` if needed, `root` included, each mode 0700: the
    /// content of a mock's files is nobody else's business.
    public init(root: URL) throws {
        blobsDirectory = root.appendingPathComponent("blobs", isDirectory: true)
        scratchDirectory = root.appendingPathComponent("scratch", isDirectory: true)
        for folder in [root, blobsDirectory, scratchDirectory] {
            try Self.makePrivateFolder(folder)
        }
    }

    /// Creates a folder (and missing parents) readable only by its owner (0700); an existing
    /// folder is left as it is.
    public static func makePrivateFolder(_ folder: URL) throws {
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// The file holding a blob.
    public func url(ofBlob sha256: String) -> URL {
        blobsDirectory.appendingPathComponent(sha256)
    }

    /// Removes everything in the scratch folder: the files of upload sessions a mock forgot
    /// when it stopped. A mock whose state survives a restart calls it when it starts (its
    /// sessions do not survive); nothing else may be using the folder then.
    public func removeScratchFiles() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: scratchDirectory.path)) ?? []
        for name in names {
            try? FileManager.default.removeItem(at: scratchDirectory.appendingPathComponent(name))
        }
    }

    /// A new, empty scratch file.
    public func makeScratchFile() throws -> URL {
        let url = scratchDirectory.appendingPathComponent(UUID().uuidString)
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown)
        }
        return url
    }

    /// Bodies up to this long are received into memory before anything touches the disk.
    public static let inMemoryLimit = 64 * 1024

    /// Receives a request body into a new blob.
    ///
    /// A body of up to ``inMemoryLimit`` bytes is hashed in memory and written only when the
    /// store does not hold those bytes yet (one file created and renamed into place); a longer
    /// one streams through a scratch file. Creating and deleting a scratch file for every small
    /// upload was a quarter of the mocks' CPU under 16 concurrent uploads of 4 KiB.
    /// - Parameters:
    ///   - body: The request body.
    ///   - limit: The most bytes accepted.
    /// - Returns: The blob, or `nil` (nothing stored) when the body was longer than `limit`.
    public func ingest(_ body: RequestBody, limit: Int64) async throws -> BlobInfo? {
        var pieces = body.makeAsyncIterator()
        var head: [UInt8] = []
        while head.count <= Self.inMemoryLimit {
            guard let buffer = try await pieces.next() else {
                guard Int64(head.count) <= limit else { return nil }
                return try store(head)
            }
            head += buffer.readableBytesView
        }
        let scratch = try makeScratchFile()
        defer { try? FileManager.default.removeItem(at: scratch) }
        guard Int64(head.count) <= limit else { return nil }
        let handle = try FileHandle(forWritingTo: scratch)
        defer { try? handle.close() }
        let digests = BlobDigests()
        head.withUnsafeBytes { digests.update($0) }
        try handle.write(contentsOf: head)
        var count = Int64(head.count)
        while let buffer = try await pieces.next() {
            count += Int64(buffer.readableBytes)
            guard count <= limit else { return nil }
            buffer.withUnsafeReadableBytes { digests.update($0) }
            try handle.write(contentsOf: Data(buffer.readableBytesView))
        }
        return try commit(scratch, info: digests.finalize(size: count))
    }

    /// Puts bytes held in memory into the store, unless it holds them already.
    /// - Returns: The blob.
    public func store(_ bytes: [UInt8]) throws -> BlobInfo {
        let digests = BlobDigests()
        bytes.withUnsafeBytes { digests.update($0) }
        let info = digests.finalize(size: Int64(bytes.count))
        guard !FileManager.default.fileExists(atPath: url(ofBlob: info.sha256).path) else { return info }
        let scratch = scratchDirectory.appendingPathComponent(UUID().uuidString)
        do {
            try Data(bytes).write(to: scratch)
            return try commit(scratch, info: info)
        } catch {
            try? FileManager.default.removeItem(at: scratch)
            throw error
        }
    }

    /// Puts a file whose bytes were hashed into the store under its SHA-256.
    /// - Parameters:
    ///   - file: The file; moved into the store, or with `keepSource` hard-linked (the file
    ///     must then never change again, as a closed upload session's does not).
    ///   - info: Its hashes and size.
    ///   - keepSource: Whether `file` stays where it is.
    public func commit(_ file: URL, info: BlobInfo, keepSource: Bool = false) throws -> BlobInfo {
        let destination = url(ofBlob: info.sha256)
        if FileManager.default.fileExists(atPath: destination.path) {
            if !keepSource { try? FileManager.default.removeItem(at: file) }
            return info
        }
        do {
            if keepSource {
                try FileManager.default.linkItem(at: file, to: destination)
            } else {
                // StratusFileSystem's rename, without the flushes: a mock's blobs need not
                // survive a power cut.
                try AtomicFile.rename(file.path, over: destination.path)
            }
        } catch  where FileManager.default.fileExists(atPath: destination.path) {
            // Another request stored the same bytes first.
            if !keepSource { try? FileManager.default.removeItem(at: file) }
        }
        return info
    }

    /// Appends a request body to a file, hashing the appended bytes.
    /// - Returns: The hashes and size of the appended bytes, or `nil` past `limit` (the file
    ///   is then truncated back to its former length).
    public static func append(_ body: RequestBody, to file: URL, limit: Int64) async throws -> BlobInfo? {
        let digests = BlobDigests()
        guard let count = try await append(body, to: file, limit: limit, feeding: digests.update) else { return nil }
        return digests.finalize(size: count)
    }

    /// Appends a request body to a file, handing each piece to `feed` as it is written (to
    /// digests that may have seen the file's earlier bytes: an upload session's, so that
    /// finishing it need not read the whole file again).
    /// - Returns: How many bytes were appended, or `nil` past `limit` (the file is then
    ///   truncated back to its former length, and `feed` saw part of the body).
    public static func append(
        _ body: RequestBody, to file: URL, limit: Int64, feeding feed: (UnsafeRawBufferPointer) -> Void
    ) async throws -> Int64? {
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        let start = try handle.seekToEnd()
        var count: Int64 = 0
        for try await buffer in body {
            count += Int64(buffer.readableBytes)
            if count > limit {
                try handle.truncate(atOffset: start)
                return nil
            }
            buffer.withUnsafeReadableBytes { feed($0) }
            try handle.write(contentsOf: Data(buffer.readableBytesView))
        }
        return count
    }

    /// Hashes a whole file, reading it in 1 MiB pieces.
    public static func hash(fileAt url: URL) throws -> BlobInfo {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let digests = BlobDigests()
        var count: Int64 = 0
        while let data = try handle.read(upToCount: 1 << 20), !data.isEmpty {
            count += Int64(data.count)
            data.withUnsafeBytes { digests.update($0) }
        }
        return digests.finalize(size: count)
    }

    /// A response body that streams a byte range of a blob from disk in 64 KiB pieces.
    public func responseBody(ofBlob sha256: String, range: Range<Int64>) -> ResponseBody {
        let url = url(ofBlob: sha256)
        let length = Int(range.upperBound - range.lowerBound)
        return ResponseBody(contentLength: length) { writer in
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            try handle.seek(toOffset: UInt64(range.lowerBound))
            var remaining = length
            while remaining > 0 {
                guard let data = try handle.read(upToCount: min(remaining, 64 * 1024)), !data.isEmpty else {
                    break
                }
                remaining -= data.count
                try await writer.write(ByteBuffer(bytes: data))
            }
            try await writer.finish(nil)
        }
    }
}

/// The three digests a blob is known by, fed together.
///
/// The digests are not thread-safe, so a `Mutex` guards them: an upload session's digests are
/// handed from one request to the next (see `UploadSessions`), and each feeds them under the
/// lock.
public final class BlobDigests: Sendable {
    /// The digests, fed together.
    private struct Digests {
        let sha256 = SHA256Digest()
        let contentHash = DropboxContentHash()
        let md5 = MD5Digest()
    }

    private let digests = Mutex(Digests())

    /// Fresh digests, before any byte.
    public init() {}

    /// Feeds bytes to all three.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        // Copied: a pointer (not `Sendable`) cannot reach the digests inside the lock.
        let bytes = [UInt8](bytes)
        digests.withLock { digests in
            bytes.withUnsafeBytes { bytes in
                digests.sha256.update(bytes)
                digests.contentHash.update(bytes)
                digests.md5.update(bytes)
            }
        }
    }

    /// The description of every byte fed; call it once.
    /// - Parameter size: How many bytes were fed.
    public func finalize(size: Int64) -> BlobInfo {
        digests.withLock { digests in
            BlobInfo(
                sha256: digests.sha256.finalizeHex(), contentHash: digests.contentHash.finalizeHex(),
                md5: digests.md5.finalizeHex(), size: size)
        }
    }
}
