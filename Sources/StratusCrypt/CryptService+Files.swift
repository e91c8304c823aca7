public import Foundation
public import Stratus
import StratusAdapterKit
import StratusDigest
import StratusFileSystem

extension CryptService {
    /// The stored description of a file, with its plain path, size, hash and metadata.
    /// - Throws: What the wrapped service throws, for the stored path.
    public func metadata(of path: RemotePath) async throws -> RemoteFile {
        let keys = try await keys()
        return plain(try await base.metadata(of: try stored(path, keys)), at: path, keys)
    }

    /// Lists the files below a folder, with plain names; stored files this key did not name
    /// (and the key file) are left out.
    /// - Throws: What the wrapped service throws.
    public func list(_ folder: RemotePath) async throws -> [RemoteFile] {
        let keys = try await keys()
        return try await base.list(try stored(folder, keys)).compactMap { file in
            plainPath(file.path, keys).map { plain(file, at: $0, keys) }
        }
    }

    /// Encrypts content into an age file and writes it to the stored path, with the
    /// precondition passed through.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidPath`` for a name too long once encrypted,
    ///   and what the wrapped service throws.
    public func upload(from source: UploadSource, to path: RemotePath, options: UploadOptions) async throws
        -> RemoteFile
    {
        let keys = try await keys()
        try capabilities.pathRules.validate(path)
        let target = try stored(path, keys)
        let scratch = try LocalScratch()
        defer { scratch.remove() }
        let sealedURL = scratch.url.appending(path: "sealed")
        let (size, hash) = try seal(source, into: sealedURL, keys)
        var userMetadata = options.metadata
        if userMetadata == nil, base.capabilities.supportsCustomMetadata {
            userMetadata = (try? await base.metadata(of: target)).map { plain($0, at: path, keys).metadata } ?? [:]
        }
        let sealedSize = Self.fileSize(sealedURL)
        let sealedHash = try? Digest.hash(fileAt: sealedURL, algorithms: [base.capabilities.hashAlgorithm])[
            base.capabilities.hashAlgorithm]
        let record = CryptRecord(
            sha256: hash, size: size, metadata: userMetadata ?? [:], sealedSize: sealedSize, sealedHash: sealedHash)
        let progress = MonotonicProgress(options.progress, total: size)
        var forwarded: ProgressHandler?
        if options.progress != nil {
            forwarded = { sent in
                progress.report(min(size - 1, Self.scaled(sent.completedBytes, of: sealedSize, to: size)))
            }
        }
        var sealedMetadata: [String: String]?
        if base.capabilities.supportsCustomMetadata {
            sealedMetadata = [CryptRecord.metadataKey: try record.sealed(with: keys.metadataKey)]
        }
        let baseOptions = UploadOptions(
            precondition: options.precondition, metadata: sealedMetadata, progress: forwarded)
        let file = try await base.upload(from: .file(sealedURL), to: target, options: baseOptions)
        progress.report(size)
        if size == 0 { options.progress?(TransferProgress(completedBytes: 0, totalBytes: 0)) }
        return plain(file, at: path, keys)
    }

    /// Downloads the age file to a private scratch file, then decrypts it chunk by chunk into
    /// a staging file beside the destination, which replaces the destination only when every
    /// chunk authenticated and the plain SHA-256 matches the sealed record.
    /// - Throws: ``/Stratus/ServiceError/Code/integrityMismatch`` for a truncated, altered,
    ///   reordered or foreign file, and what the wrapped service throws.
    public func download(_ path: RemotePath, version: VersionID?, to destination: URL, options: DownloadOptions)
        async throws -> RemoteFile
    {
        let keys = try await keys()
        let scratch = try LocalScratch()
        defer { scratch.remove() }
        let sealedURL = scratch.url.appending(path: "sealed")
        let progress = MonotonicProgress(options.progress, total: nil)
        var forwarded: ProgressHandler?
        if options.progress != nil {
            forwarded = { received in
                guard let sealedTotal = received.totalBytes, sealedTotal > 0,
                    let total = AgeStream.plaintextSize(ofSealed: sealedTotal)
                else { return }
                let scaled = Self.scaled(received.completedBytes, of: sealedTotal, to: total)
                if scaled < total { progress.report(scaled, total: total) }
            }
        }
        let stored = try await base.download(
            try stored(path, keys), version: version, to: sealedURL, options: DownloadOptions(progress: forwarded))
        let staging = try DownloadStaging(for: destination, service: "crypt")
        defer { staging.discard() }
        let (size, hash) = try open(sealedURL, into: staging.temporary, keys, path: path)
        var file = plain(stored, at: path, keys)
        if let record = CryptRecord.open(stored.metadata, key: keys.metadataKey), record.describes(stored),
            record.sha256 != hash || record.size != size
        {
            throw ServiceError(
                .integrityMismatch,
                "The content of \(path) decrypts, but not to the SHA-256 and size its sealed record names; the destination was left as it was."
            )
        }
        try staging.moveIntoPlace()
        progress.report(size, total: size)
        file.size = size
        file.contentHash = ContentHash(algorithm: .sha256, value: hash)
        return file
    }

    /// Deletes the stored file, with the precondition passed through.
    /// - Throws: What the wrapped service throws.
    public func delete(_ path: RemotePath, precondition: WritePrecondition) async throws {
        let keys = try await keys()
        try await base.delete(try stored(path, keys), precondition: precondition)
    }

    /// The wrapped service's changes, with plain paths; changes to files this key did not
    /// name (and to the key file) are left out.
    /// - Throws: What the wrapped service throws.
    public func changes(since token: ChangeToken) async throws -> ChangePage {
        let keys = try await keys()
        var page = try await base.changes(since: token)
        page.changes = page.changes.compactMap { change in
            switch change {
            case .upserted(let file): plainPath(file.path, keys).map { .upserted(plain(file, at: $0, keys)) }
            case .deleted(let path): plainPath(path, keys).map { .deleted($0) }
            }
        }
        return page
    }

    /// The wrapped service's versions, with plain sizes (hashes are known for the current one
    /// only, through ``metadata(of:)``).
    /// - Throws: What the wrapped service throws.
    public func versions(of path: RemotePath) async throws -> [FileVersion] {
        let keys = try await keys()
        return try await base.versions(of: try stored(path, keys)).map { version in
            FileVersion(
                id: version.id, size: AgeStream.plaintextSize(ofSealed: version.size) ?? version.size,
                modified: version.modified, contentHash: nil)
        }
    }

    /// Restores a version in the wrapped service.
    /// - Throws: What the wrapped service throws.
    public func restore(_ path: RemotePath, to version: VersionID) async throws -> RemoteFile {
        let keys = try await keys()
        let restored = try await base.restore(try stored(path, keys), to: version)
        let file = plain(restored, at: path, keys)
        guard file.contentHash == nil else { return file }
        // The record is another version's (a provider with one metadata for all versions):
        // read the restored content once to describe it.
        let scratch = try LocalScratch()
        defer { scratch.remove() }
        return try await download(path, version: restored.version, to: scratch.url.appending(path: "restored"))
    }

    // MARK: - Paths and descriptions

    /// The stored path of a plain path.
    func stored(_ path: RemotePath, _ keys: CryptKeys) throws -> RemotePath {
        guard let cipher = keys.names else {
            guard path != Self.keyFilePath else {
                throw ServiceError(.invalidPath, "\(path) is the crypt remote's key file, which files cannot replace.")
            }
            return path
        }
        var stored = RemotePath.root
        for component in path.components {
            stored = try stored.appending(try cipher.encrypt(component))
        }
        do {
            try base.capabilities.pathRules.validate(stored)
        } catch {
            throw ServiceError(
                .invalidPath,
                "The path \(path) is too long once its names are encrypted (\(stored.string.utf8.count) bytes stored; each name grows to ceil((n + 16) * 8 / 5) characters)."
            )
        }
        return stored
    }

    /// The plain path of a stored path, or `nil` for one this key did not write.
    func plainPath(_ path: RemotePath, _ keys: CryptKeys) -> RemotePath? {
        guard path != Self.keyFilePath else { return nil }
        guard let cipher = keys.names else { return path }
        var plain = RemotePath.root
        for component in path.components {
            guard let name = cipher.decrypt(component), let next = try? plain.appending(name) else { return nil }
            plain = next
        }
        return plain
    }

    /// A stored description, seen through the wrapper.
    func plain(_ file: RemoteFile, at path: RemotePath, _ keys: CryptKeys) -> RemoteFile {
        var plain = file
        plain.path = path
        let record = CryptRecord.open(file.metadata, key: keys.metadataKey)
        plain.metadata = record?.metadata ?? [:]
        if let record, record.describes(file) {
            plain.size = record.size
            plain.contentHash = ContentHash(algorithm: .sha256, value: record.sha256)
        } else {
            plain.size = AgeStream.plaintextSize(ofSealed: file.size) ?? file.size
            plain.contentHash = nil
        }
        return plain
    }

    // MARK: - Contents

    /// Encrypts a source into a file; returns the plain size and SHA-256 (hex).
    private func seal(_ source: UploadSource, into url: URL, _ keys: CryptKeys) throws -> (Int64, String) {
        let output = try Self.create(url)
        defer { try? output.close() }
        let digest = SHA256Digest()
        let read: AgeStream.Reader
        var input: FileHandle?
        switch source {
        case .bytes(let data):
            read = AgeStream.reader([UInt8](data))
        case .file(let file):
            guard let handle = try? FileHandle(forReadingFrom: file) else {
                throw ServiceError(.localFile, "The file \(file.path) cannot be read.")
            }
            input = handle
            read = AgeStream.reader(handle)
        }
        defer { try? input?.close() }
        let size = try translated("The content for upload") {
            try AgeStream.encrypt(read: read, write: { try output.write(contentsOf: $0) }) { fileKey in
                [try AgeRecipients.x25519Stanza(fileKey: fileKey, to: keys.identity.publicKey)]
            } observe: { chunk in
                digest.update(chunk)
            }
        }
        return (size, Hex.encode(digest.finalize()))
    }

    /// Decrypts an age file into a local file; returns the plain size and SHA-256 (hex).
    private func open(_ sealed: URL, into url: URL, _ keys: CryptKeys, path: RemotePath) throws -> (Int64, String) {
        guard let input = try? FileHandle(forReadingFrom: sealed), let output = try? FileHandle(forWritingTo: url)
        else {
            throw ServiceError(.localFile, "The downloaded content of \(path) could not be staged.")
        }
        defer {
            try? input.close()
            try? output.close()
        }
        let digest = SHA256Digest()
        let size = try translated("The content of \(path)") {
            try AgeStream.decrypt(read: AgeStream.reader(input), write: { try output.write(contentsOf: $0) }) {
                header in
                guard let key = try AgeRecipients.fileKey(from: header.stanzas, identity: keys.identity) else {
                    throw AgeFailure.corrupt("it is not encrypted to this remote's identity")
                }
                return key
            } observe: { chunk in
                digest.update(chunk)
            }
        }
        return (size, Hex.encode(digest.finalize()))
    }

    /// Runs a stream step, turning its failures into service errors.
    private func translated<T>(_ what: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let failure as AgeFailure {
            throw failure.serviceError(what)
        } catch let error as ServiceError {
            throw error
        } catch is CancellationError {
            throw ServiceError(.cancelled, "\(what) was cancelled.")
        } catch {
            throw ServiceError(.localFile, "\(what) could not be read or written: \(error.localizedDescription)")
        }
    }

    /// `part` of `whole`, scaled to `target`, without overflow.
    static func scaled(_ part: Int64, of whole: Int64, to target: Int64) -> Int64 {
        guard whole > 0 else { return 0 }
        return Int64(Double(target) * min(1, max(0, Double(part) / Double(whole))))
    }

    private static func fileSize(_ url: URL) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.int64Value ?? -1
    }

    private static func create(_ url: URL) throws -> FileHandle {
        guard FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600]),
            let handle = try? FileHandle(forWritingTo: url)
        else {
            throw ServiceError(.localFile, "A temporary file could not be created for the encrypted content.")
        }
        return handle
    }
}
