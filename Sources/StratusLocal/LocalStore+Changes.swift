import Stratus
import StratusFileSystem

extension LocalStore {
    /// A token for the current end of the change journal.
    /// - Throws: ``FileSystemError`` when the journal cannot be read.
    func latestChangeToken() throws -> ChangeToken {
        try FileLock.withLock(lockPath) { try journal.end().token }
    }

    /// The next page of changes after a token.
    /// - Throws: ``ServiceError`` (`invalidChangeToken`) for a token this store did not issue.
    func changes(since token: ChangeToken) throws -> ChangePage {
        let position = try JournalPosition(token: token)
        return try FileLock.withLock(lockPath) {
            try journal.changes(after: position, limit: changePageSize)
        }
    }
}
