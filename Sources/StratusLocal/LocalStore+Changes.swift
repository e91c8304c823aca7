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

    /// Whether the journal has a change after a token, checked as ``changes(since:)`` checks
    /// the token.
    /// - Throws: ``ServiceError`` (`invalidChangeToken`) for a token this store did not issue.
    func hasChanges(since token: ChangeToken) throws -> Bool {
        let position = try JournalPosition(token: token)
        return try FileLock.withLock(lockPath) {
            !(try journal.changes(after: position, limit: 1).changes.isEmpty)
        }
    }
}
