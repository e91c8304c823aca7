import Stratus
import StratusFileSystem

extension LocalStore {
    /// Deletes a path's file, keeping its versions.
    /// - Parameters:
    ///   - path: The file; not the root.
    ///   - precondition: What must hold first.
    /// - Throws: ``ServiceError`` (`notFound`, `conflict`), ``FileSystemError``.
    func delete(_ path: RemotePath, precondition: WritePrecondition) throws {
        try FileLock.withLock(lockPath) {
            guard var record = try record(of: path), record.exists else {
                throw ServiceError(.notFound, "Cannot delete \(path): no file is there.")
            }
            try precondition.check(current: record.currentVersion?.id, at: path, for: .delete)
            record.currentVersionNumber = nil
            let preparedRecord = try prepare(record)
            defer { FileSystem.discardFile(preparedRecord) }
            let journalLength = try journal.append(.deleted(path))
            do {
                try AtomicFile.rename(preparedRecord, over: layout.record(for: layout.key(for: path)))
            } catch {
                try? journal.truncate(to: journalLength)
                throw error
            }
            // Committed. The visible file goes last: should removing it fail, listings still
            // leave it out, because its record says it is deleted.
            try? AtomicFile.synchronizeFolder(layout.records)
            if try FileSystem.kind(at: layout.visible(path)) == .regularFile {
                try? FileSystem.removeFile(layout.visible(path))
            }
        }
    }
}
