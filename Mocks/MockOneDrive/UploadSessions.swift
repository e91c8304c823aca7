import Foundation
import MockSupport
import Synchronization

/// Where an upload session's file goes once its last byte arrives.
struct SessionTarget: Sendable {
    /// The folder the path starts from.
    var baseID: String
    /// The folders below it, made if missing when the session completes.
    var folderPath: [String]
    /// The file's name (a new file or the one it replaces).
    var name: String?
    /// The file being updated, when the session was made on an item by id.
    var existingID: String?
}

/// An upload session: its bytes so far in a scratch file, and what to do with them.
struct UploadSession: Sendable {
    /// The session's id: the last segment of its upload URL, unguessable.
    var id: String
    /// Where the file goes.
    var target: SessionTarget
    /// What happens when the name is taken.
    var conflict: ConflictBehavior
    /// The conditions checked when the session was made, checked again when it completes.
    var condition: WriteCondition
    /// The whole file's size, once a fragment (or `item.fileSize`) said it.
    var total: Int64?
    /// The bytes received, from the start.
    var received: Int64 = 0
    /// The scratch file holding them.
    var file: URL
    /// When the session ends unless a fragment arrives first.
    var expires: Date
    /// Whether a fragment is being received now.
    var busy = false
    /// The `item.fileSystemInfo` the session was made with, set on the file when it completes.
    var fileSystemInfo = FileSystemDates()
}

/// The open upload sessions.
final class UploadSessions: Sendable {
    private let sessions = Mutex<[String: UploadSession]>([:])

    /// Adds a session, and forgets the ones that expired (removing their files).
    func add(_ session: UploadSession) {
        let now = Date()
        let expired = sessions.withLock { all in
            let gone = all.values.filter { $0.expires <= now && !$0.busy }
            for old in gone { all[old.id] = nil }
            all[session.id] = session
            return gone
        }
        for old in expired { try? FileManager.default.removeItem(at: old.file) }
    }

    /// Runs `body` on a live session under the lock; an expired one is removed (and its file).
    /// - Throws: ``GraphFailure`` 404 when there is no such session (any more).
    func withSession<Result: Sendable>(
        _ id: String, _ body: (inout UploadSession) throws(GraphFailure) -> Result
    ) throws(GraphFailure) -> Result {
        try sessions.withLock { (all: inout [String: UploadSession]) throws(GraphFailure) -> Result in
            guard var session = all[id] else { throw .itemNotFound("The upload session was not found.") }
            guard session.expires > Date() else {
                all[id] = nil
                try? FileManager.default.removeItem(at: session.file)
                throw .itemNotFound("The upload session has expired.")
            }
            defer { all[id] = session }
            return try body(&session)
        }
    }

    /// Removes a session and its file.
    /// - Returns: Whether it existed.
    @discardableResult
    func remove(_ id: String) -> Bool {
        guard let session = sessions.withLock({ $0.removeValue(forKey: id) }) else { return false }
        try? FileManager.default.removeItem(at: session.file)
        return true
    }

    /// Ends every session, as if each had expired.
    func expireAll() {
        let all = sessions.withLock { all in
            defer { all.removeAll() }
            return Array(all.values)
        }
        for session in all { try? FileManager.default.removeItem(at: session.file) }
    }

    /// How many sessions are open.
    var count: Int { sessions.withLock { $0.count } }
}
