import Foundation
import MockSupport
import Synchronization

/// Upload sessions: bytes on disk in the scratch folder, offsets and state in memory.
final class UploadSessions: Sendable {
    struct Session {
        var file: URL
        var offset: Int64
        var isClosed = false
        var isBusy = false
        /// Digests of every byte appended so far, while each append fed them; `nil` once one
        /// did not (an append checked against its own content hash, or one that failed), and
        /// then finishing hashes the file.
        var digests: BlobDigests?
        /// What the digests gave once the session was finished (a finish can be repeated).
        var content: BlobInfo?
    }

    /// Why a session could not take more bytes (`UploadSessionLookupError`).
    enum Problem: Error {
        case notFound
        case incorrectOffset(Int64)
        case closed
        /// A batch entry named a session that was never closed.
        case notClosed

        var union: [String: Any] {
            switch self {
            case .notFound: [".tag": "not_found"]
            case .incorrectOffset(let correct):
                [".tag": "incorrect_offset", "correct_offset": NSNumber(value: correct)]
            case .closed: [".tag": "closed"]
            case .notClosed: [".tag": "not_closed"]
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
        sessions.withLock { $0[id] = Session(file: file, offset: 0, isBusy: true, digests: BlobDigests()) }
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
    /// The digests of a session claimed by the caller, to feed its append; `nil` when they no
    /// longer follow the file.
    func digests(ofClaimed id: String) -> BlobDigests? {
        sessions.withLock { $0[id]?.digests }
    }

    /// Stops following a session's bytes with digests (an append checked on its own).
    func dropDigests(_ id: String) {
        sessions.withLock { $0[id]?.digests = nil }
    }

    /// What a closed session's file holds, from the digests its appends fed; `nil` when they
    /// did not see every byte (hash the file instead).
    func content(ofClosed id: String) -> BlobInfo? {
        sessions.withLock { all in
            guard var session = all[id], session.isClosed, !session.isBusy else { return nil }
            if session.content == nil, let digests = session.digests {
                session.content = digests.finalize(size: session.offset)
                session.digests = nil
                all[id] = session
            }
            return session.content
        }
    }

    func file(ofClosed id: String) -> URL? {
        sessions.withLock { all in
            guard let session = all[id], session.isClosed, !session.isBusy else { return nil }
            return session.file
        }
    }

    /// Undoes the append of a `finish` whose commit was refused before it ran: the session
    /// goes back to `offset`, open again if it was, so the same request can be sent again.
    /// - Parameters:
    ///   - offset: The offset the finish named.
    ///   - added: How many bytes the finish appended (they are cut off the file).
    ///   - wasClosed: Whether the session was closed before the finish.
    func undoFinish(_ id: String, offset: Int64, added: Int64, wasClosed: Bool) {
        sessions.withLock { all in
            guard var session = all[id], !session.isBusy, session.offset == offset + added else { return }
            if added > 0 {
                guard let handle = try? FileHandle(forWritingTo: session.file) else { return }
                defer { try? handle.close() }
                guard (try? handle.truncate(atOffset: UInt64(offset))) != nil else { return }
                // The digests saw the bytes just cut off.
                session.digests = nil
            }
            session.offset = offset
            session.isClosed = wasClosed
            all[id] = session
        }
    }

    /// Forgets a finished session (its file has moved into the blob store or is removed).
    func finish(_ id: String) {
        let file = sessions.withLock { $0.removeValue(forKey: id)?.file }
        if let file { try? FileManager.default.removeItem(at: file) }
    }
}
