import Stratus
import StratusFileSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension LocalStore {
    /// The kept versions of a path, newest first, including those of a deleted file.
    /// - Throws: ``ServiceError`` (`notFound`) when the path never held a file.
    func versions(of path: RemotePath) throws -> [FileVersion] {
        guard let record = try record(of: path), !record.versions.isEmpty else {
            throw ServiceError(.notFound, "No file has been written at \(path), so it has no versions.")
        }
        return record.versions.map(\.fileVersion)
    }

    /// Makes a kept version current again, as a new version.
    ///
    /// The old content is copied into staging (and checked against its hash) without the lock,
    /// then committed like an upload that keeps the file's custom metadata.
    /// - Parameters:
    ///   - path: The file; not the root.
    ///   - version: A kept version.
    ///   - cancellation: Checked between buffers.
    /// - Returns: The file after the restore.
    /// - Throws: ``ServiceError`` (`notFound`, `conflict`, `integrityMismatch`, `cancelled`),
    ///   ``FileSystemError``.
    func restore(_ path: RemotePath, to version: VersionID, cancellation: CancellationFlag) throws -> RemoteFile {
        let (content, kept, _) = try openVersion(version, of: path)
        let staged = try StagedContent(
            receiving: .file(content, size: kept.size), in: layout.staging,
            progress: nil, cancellation: cancellation,
            cancelledMessage: "The restore of \(path) to version \(version) was cancelled; nothing was changed."
        )
        defer { staged.discard() }
        guard staged.sha256 == kept.sha256 else {
            throw ServiceError(
                .integrityMismatch,
                "Version \(version) of \(path) no longer matches its recorded SHA-256 (recorded \(kept.sha256), read \(staged.sha256)); it was not restored. Restore another version."
            )
        }
        return try FileLock.withLock(lockPath) {
            try commit(staged, to: path, precondition: .none, metadata: nil)
        }
    }

    /// Opens the content of a kept version while holding the lock, so pruning cannot remove it
    /// between looking it up and opening it; once open, it stays readable.
    /// - Parameters:
    ///   - version: A version, or `nil` for the current one.
    ///   - path: The file.
    /// - Returns: The open content, the version's entry and the file's record.
    /// - Throws: ``ServiceError`` (`notFound`) for a missing file or version.
    func openVersion(_ version: VersionID?, of path: RemotePath) throws -> (
        content: FileDescriptor, version: FileRecord.Version, record: FileRecord
    ) {
        try FileLock.withLock(lockPath) {
            guard let record = try record(of: path) else {
                throw ServiceError(.notFound, "No file is at \(path).")
            }
            let kept: FileRecord.Version
            if let version {
                guard let found = record.version(version) else {
                    let known = record.versions.prefix(5).map(\.id.rawValue).joined(separator: ", ")
                    throw ServiceError(
                        .notFound,
                        "\(path) has no version \(version.rawValue.debugDescription); it may have been pruned. Kept versions, newest first: \(known.isEmpty ? "none" : known)."
                    )
                }
                kept = found
            } else {
                guard let current = record.currentVersion else {
                    throw ServiceError(
                        .notFound,
                        "No file is at \(path); it was deleted. Its versions can still be listed and restored.")
                }
                kept = current
            }
            let content = layout.version(kept.number, for: layout.key(for: path))
            do {
                return (try FileDescriptor.open(content, O_RDONLY), kept, record)
            } catch let error as FileSystemError where error.errorNumber == ENOENT {
                throw ServiceError(
                    .notFound,
                    "The content of version \(kept.id) of \(path) is missing from \(content); the store was changed by hand. Restore another version.",
                    underlying: error
                )
            }
        }
    }
}
