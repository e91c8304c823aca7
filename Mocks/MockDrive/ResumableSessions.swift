import Foundation
import Synchronization

/// Resumable upload sessions: bytes on disk in the scratch folder, progress in memory.
final class ResumableSessions: Sendable {
    /// One session.
    struct Session: Sendable {
        /// The file to update, or `nil` to create one.
        var fileID: String?
        /// The metadata sent when the session was started.
        var metadata: FileMetadata
        /// The query of the starting request (`fields`, `addParents`, ...), used for the final answer.
        var query: String?
        /// `X-Upload-Content-Type`.
        var contentType: String?
        /// `X-Upload-Content-Length`, or the total a chunk announced.
        var total: Int64?
        /// The bytes received so far.
        var file: URL
        /// How many bytes were received and kept.
        var received: Int64 = 0
        /// Whether a request is writing to the session.
        var isBusy = false
        /// The file's resource once the upload completed.
        var completedFileID: String?
    }

    /// Why a session could not be used.
    enum Problem: Error {
        case notFound
        case busy
    }

    private let directory: URL
    private let sessions = Mutex<[String: Session]>([:])

    init(directory: URL) {
        self.directory = directory
    }

    /// Starts a session.
    /// - Returns: Its id.
    func start(fileID: String?, metadata: FileMetadata, query: String?, contentType: String?, total: Int64?) throws
        -> String
    {
        let id = "AUpload" + DriveState.randomID(count: 60)
        let file = directory.appendingPathComponent("resumable-\(id)")
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown)
        }
        let session = Session(
            fileID: fileID, metadata: metadata, query: query, contentType: contentType, total: total, file: file)
        sessions.withLock { $0[id] = session }
        return id
    }

    /// Takes a session for one request; ``release(_:_:)`` gives it back.
    func claim(_ id: String) throws(Problem) -> Session {
        try sessions.withLock { (all: inout [String: Session]) throws(Problem) -> Session in
            guard var session = all[id] else { throw .notFound }
            guard !session.isBusy else { throw .busy }
            session.isBusy = true
            all[id] = session
            return session
        }
    }

    /// Gives a session back with its new state.
    func release(_ id: String, _ session: Session) {
        var session = session
        session.isBusy = false
        sessions.withLock { $0[id] = session }
    }

    /// Forgets every session that is not writing right now and removes its bytes.
    func discardAll() {
        let files = sessions.withLock { all in
            let idle = all.filter { !$0.value.isBusy }
            for id in idle.keys { all[id] = nil }
            return idle.values.map(\.file)
        }
        for file in files { try? FileManager.default.removeItem(at: file) }
    }

    /// Forgets a session and removes its bytes.
    func discard(_ id: String) {
        let file = sessions.withLock { $0.removeValue(forKey: id)?.file }
        if let file { try? FileManager.default.removeItem(at: file) }
    }
}
