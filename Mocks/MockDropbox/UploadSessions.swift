import Foundation
import Synchronization

/// Upload sessions: bytes on disk in the scratch folder, offsets and state in memory.
final class UploadSessions: Sendable {
    struct Session {
        var file: URL
        var offset: Int64
        var isClosed = false
        var isBusy = false
    }

    /// Why a session could not take more bytes (`UploadSessionLookupError`).
    enum Problem: Error {
        case notFound
        case incorrectOffset(Int64)
        case closed

        var union: [String: Any] {
            switch self {
            case .notFound: [".tag": "not_found"]
            case .incorrectOffset(let correct):
                [".tag": "incorrect_offset", "correct_offset": NSNumber(value: correct)]
            case .closed: [".tag": "closed"]
            }
        }
    }

    private let directory: URL
    private let sessions = Mutex<[String: Session]>([:])

    init(directory: URL) {
        self.directory = directory
    }

    /// Opens a session with an empty file.
    func start() throws -> (id: String, file: URL) {
        let id = "pid_upload_session:" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        let file = directory.appendingPathComponent("session-" + UUID().uuidString)
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown)
        }
        sessions.withLock { $0[id] = Session(file: file, offset: 0, isBusy: true) }
        return (id, file)
    }

    /// Opens a closed session holding a blob's bytes (a hard link to it), so a commit that
    /// failed can be retried with `upload_session/finish`, as Dropbox's `upload_session_id`
    /// in `UploadWriteFailed` allows.
    /// - Returns: The session id, or `""` if the link could not be made.
    func adopt(blob: URL, size: Int64) -> String {
        let id = "pid_upload_session:" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        let file = directory.appendingPathComponent("session-" + UUID().uuidString)
        guard (try? FileManager.default.linkItem(at: blob, to: file)) != nil else { return "" }
        sessions.withLock { $0[id] = Session(file: file, offset: size, isClosed: true) }
        return id
    }

    /// Claims a session for appending at `offset`.
    /// - Parameter finishing: Whether the claim is for `finish`, which may name a closed
    ///   session (then with an empty body only).
    /// - Returns: The session's file and whether it was closed.
    func claim(_ id: String, offset: Int64, finishing: Bool = false) throws(Problem) -> (file: URL, wasClosed: Bool) {
        try sessions.withLock { (all: inout [String: Session]) throws(Problem) -> (file: URL, wasClosed: Bool) in
            guard var session = all[id] else { throw .notFound }
            guard !session.isClosed || finishing else { throw .closed }
            guard !session.isBusy, session.offset == offset else { throw .incorrectOffset(session.offset) }
            session.isBusy = true
            all[id] = session
            return (session.file, session.isClosed)
        }
    }

    /// Releases a claim, adding the bytes written and closing the session if asked.
    func release(_ id: String, added: Int64, close: Bool) {
        sessions.withLock { all in
            all[id]?.offset += added
            all[id]?.isBusy = false
            if close { all[id]?.isClosed = true }
        }
    }

    /// The file of a closed, idle session, or `nil`.
    func file(ofClosed id: String) -> URL? {
        sessions.withLock { all in
            guard let session = all[id], session.isClosed, !session.isBusy else { return nil }
            return session.file
        }
    }

    /// Forgets a finished session (its file has moved into the blob store or is removed).
    func finish(_ id: String) {
        let file = sessions.withLock { $0.removeValue(forKey: id)?.file }
        if let file { try? FileManager.default.removeItem(at: file) }
    }
}
