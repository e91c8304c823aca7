import Foundation
import Stratus
import StratusFileSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension LocalStore {
    /// Writes content to a path as a new version.
    ///
    /// The content is received into the staging folder without the lock; then, holding the
    /// lock, the precondition and the path are checked and the content is committed.
    /// - Parameters:
    ///   - source: The content.
    ///   - path: Where to write it; not the root.
    ///   - options: The precondition, custom metadata and progress handler.
    ///   - cancellation: Checked between buffers and once more before committing.
    /// - Returns: The new file.
    /// - Throws: ``ServiceError`` (`conflict`, `localFile`, `cancelled`), ``FileSystemError``.
    func upload(from source: UploadSource, to path: RemotePath, options: UploadOptions, cancellation: CancellationFlag)
        throws -> RemoteFile
    {
        // Fail fast, before a long transfer; the checks are repeated under the lock.
        try options.precondition.check(current: try record(of: path)?.currentVersion?.id, at: path)
        try checkNothingInTheWay(of: path)

        let staged: StagedContent
        let cancelledMessage = "The upload to \(path) was cancelled; nothing was written."
        switch source {
        case .bytes(let data):
            staged = try StagedContent(
                receiving: .bytes(data), in: layout.staging,
                progress: options.progress, cancellation: cancellation, cancelledMessage: cancelledMessage
            )
        case .file(let url):
            let sourcePath = url.withUnsafeFileSystemRepresentation { $0.map { String(cString: $0) } } ?? url.path
            do {
                let file = try FileDescriptor.open(sourcePath, O_RDONLY)
                let status = try file.status()
                guard status.isRegularFile else {
                    throw ServiceError(
                        .localFile,
                        "Cannot upload \(sourcePath): it is not a regular file. Upload the files inside a folder one by one."
                    )
                }
                staged = try StagedContent(
                    receiving: .file(file, size: status.size), in: layout.staging,
                    progress: options.progress, cancellation: cancellation, cancelledMessage: cancelledMessage
                )
            } catch let error as FileSystemError where error.path == sourcePath {
                let reason = error.errorNumber == ENOENT ? "it does not exist" : error.reason
                throw ServiceError(
                    .localFile, "Could not read the file to upload, \(sourcePath): \(reason).", underlying: error)
            }
        }
        defer { staged.discard() }
        try cancellation.check(cancelledMessage)
        return try FileLock.withLock(lockPath) {
            try commit(staged, to: path, precondition: options.precondition, metadata: options.metadata)
        }
    }

    /// Makes staged content the current version of a path. The caller holds the lock.
    ///
    /// The steps are ordered so that a failure before the record is renamed into place leaves
    /// the store as it was: the journal entry is cut off again and the version file removed.
    /// - Parameters:
    ///   - staged: The content.
    ///   - path: Where it goes.
    ///   - precondition: What must hold first.
    ///   - metadata: The new custom metadata, or `nil` to keep the current one.
    /// - Returns: The new file.
    /// - Throws: ``ServiceError`` (`conflict`) when the precondition does not hold or something
    ///   is in the way, ``FileSystemError`` when the disk refuses.
    func commit(
        _ staged: StagedContent, to path: RemotePath, precondition: WritePrecondition, metadata: [String: String]?
    ) throws -> RemoteFile {
        let key = layout.key(for: path)
        let existing = try record(of: path)
        try precondition.check(current: existing?.currentVersion?.id, at: path)
        try checkNothingInTheWay(of: path)

        var createdFolders: [String] = []
        do {
            createdFolders = try makeParentFolders(of: path)
            var record = try existing ?? FileRecord(path: path, id: Self.randomIdentifier())
            if let metadata {
                record.metadata = metadata
            }
            let (added, pruned) = record.addVersion(
                size: staged.size, sha256: staged.sha256, at: Date(), keeping: maximumVersions)
            let file = record.remoteFile(at: added)
            try FileSystem.makeDirectory(layout.versionFolder(for: key))
            let preparedRecord = try prepare(record)
            defer { FileSystem.discardFile(preparedRecord) }

            let versionFile = layout.version(added.number, for: key)
            let journalLength = try journal.append(.upserted(file))
            do {
                try AtomicFile.rename(staged.versionCopy, over: versionFile)
                try AtomicFile.rename(staged.visibleCopy, over: layout.visible(path))
                try AtomicFile.rename(preparedRecord, over: layout.record(for: key))
            } catch {
                try? journal.truncate(to: journalLength)
                FileSystem.discardFile(versionFile)
                throw error
            }

            // Committed. What follows only makes it durable sooner or frees space.
            try? AtomicFile.synchronizeFolder(layout.versionFolder(for: key))
            try? AtomicFile.synchronizeFolder(layout.visible(path.parent ?? .root))
            try? AtomicFile.synchronizeFolder(layout.records)
            for version in pruned {
                FileSystem.discardFile(layout.version(version.number, for: key))
            }
            return file
        } catch {
            for folder in createdFolders.reversed() {
                FileSystem.discardEmptyDirectory(folder)
            }
            throw error
        }
    }

    /// Refuses a path where a folder is, or below a file.
    /// - Throws: ``ServiceError`` (`conflict`).
    func checkNothingInTheWay(of path: RemotePath) throws {
        if try FileSystem.kind(at: layout.visible(path)) == .directory {
            throw ServiceError(
                .conflict,
                "Cannot write \(path): a folder is there. Delete the files inside it first, or choose another name."
            )
        }
        var ancestor = path.parent
        while let folder = ancestor, !folder.isRoot {
            if try record(of: folder)?.exists == true || FileSystem.kind(at: layout.visible(folder)) == .regularFile {
                throw fileInTheWay(of: path, at: folder)
            }
            ancestor = folder.parent
        }
    }

    /// Creates the visible folders above a path.
    /// - Returns: The folders this call created, outermost first, so a failed write can remove
    ///   them again.
    /// - Throws: ``ServiceError`` (`conflict`) when a file is where a folder must be.
    private func makeParentFolders(of path: RemotePath) throws -> [String] {
        var created: [String] = []
        var folder = RemotePath.root
        for component in path.components.dropLast() {
            folder = try folder.appending(component)
            do {
                if try FileSystem.makeDirectory(layout.visible(folder)) {
                    created.append(layout.visible(folder))
                }
            } catch let error as FileSystemError where error.errorNumber == EEXIST || error.errorNumber == ENOTDIR {
                for made in created.reversed() {
                    FileSystem.discardEmptyDirectory(made)
                }
                throw fileInTheWay(of: path, at: folder)
            }
        }
        return created
    }

    private func fileInTheWay(of path: RemotePath, at folder: RemotePath) -> ServiceError {
        ServiceError(
            .conflict,
            "Cannot write \(path): \(folder) is a file, and a file cannot hold other files. Delete or rename \(folder) first, or choose another path."
        )
    }
}
